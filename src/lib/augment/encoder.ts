/**
 * The encoders of the paper's eq. 1 (QueryEncoder), and the one for a static table (the default GloVe
 * model): enc(q)₀ is the mean of the query's token rows (the sentence vector the dense column uses, before
 * normalization), enc(q)ᵢ of a BM25 term is the mean of the rows of the whitespace-separated word it was
 * analyzed from. Both are kept as linear mixes of table rows, so the gradient can reach the rows when they
 * are trained. A frozen transformer (transformer-encoder.ts) gives its vectors as they are (RowMix.vector).
 */
import type { Analyzer } from '../analysis/analyzer.ts';
import type { EmbeddingDtype } from '../dense/registry.ts';
import type { StaticTable } from '../dense/static-table.ts';

/** Σ coefs[i] · row(rows[i]) over table rows, plus `vector` where the encoder computed one (a transformer's). */
export interface RowMix {
  rows: Int32Array;
  coefs: Float32Array;
  /** A fixed vector of the encoder's dimension added to the rows' mix; no gradient reaches it (frozen). */
  vector?: Float32Array;
}

/** A query as the model reads it: its sentence mix and its distinct BM25 terms, each with its mix. */
export interface EncodedQuery {
  sentence: RowMix;
  /** Distinct terms of the analyzed query, in order of first occurrence: bow(q). */
  terms: string[];
  termMixes: RowMix[];
}

/** Accumulates row coefficients before they become a RowMix. */
class MixBuilder {
  private readonly coefs = new Map<number, number>();

  add(row: number, coef: number): void {
    this.coefs.set(row, (this.coefs.get(row) ?? 0) + coef);
  }

  build(divisor = 1): RowMix {
    const entries = [...this.coefs].sort((a, b) => a[0] - b[0]);
    return { rows: Int32Array.from(entries, ([row]) => row), coefs: Float32Array.from(entries, ([, coef]) => coef / divisor) };
  }

  get size(): number {
    return this.coefs.size;
  }
}

/**
 * What training and the Augmenter need of an encoder: queries as mixes, the rows those mixes name, and a
 * batched encoding (a transformer runs its session once per batch; a static table needs none).
 */
export interface QueryEncoder {
  /** The registry id the model file names. */
  readonly id: string;
  readonly analyzer: Analyzer;
  /** E: the dimension of enc(q). */
  readonly dim: number;
  /** Table rows the mixes may name (0: the mixes carry their vectors). */
  readonly rows: number;
  /** Whether the rows may be trained (end to end): a static table's. */
  readonly trainableRows: boolean;
  /** A transformer's weights (fp32, q8…), recorded in the model file; absent for a static table. */
  readonly dtype?: EmbeddingDtype;
  /** Row `row`, dequantized, into `out` at `offset`. */
  readRow(row: number, out: Float32Array, offset?: number): void;
  /**
   * The encoding of one text. A transformer has it only for texts `encodeMany` encoded (it throws
   * otherwise): its session runs asynchronously, in batches.
   */
  encode(text: string): EncodedQuery;
  /** The encodings of many texts, in order (batched where the encoder runs a model). */
  encodeMany(texts: readonly string[], signal?: AbortSignal): Promise<EncodedQuery[]>;
  /** Releases what the encoder holds (a transformer's session); a static table holds nothing. */
  dispose?(): Promise<void>;
}

export class StaticQueryEncoder implements QueryEncoder {
  readonly trainableRows = true;

  constructor(
    readonly id: string,
    readonly table: StaticTable,
    readonly analyzer: Analyzer,
  ) {}

  get dim(): number {
    return this.table.header.dim;
  }

  get rows(): number {
    return this.table.header.rows;
  }

  /** Row `row` of the table, dequantized, into `out` at `offset`. */
  readRow(row: number, out: Float32Array, offset = 0): void {
    const { dim } = this.table.header;
    const scale = this.table.scales[row]!;
    const base = row * dim;
    for (let c = 0; c < dim; c++) out[offset + c] = scale * this.table.values[base + c]!;
  }

  /** Rows that carry a word: not [UNK], not the zero rows of punctuation (they are left out of mixes). */
  private isWordRow(row: number): boolean {
    return row !== this.table.tokenizer.unkId && this.table.scales[row] !== 0;
  }

  /** The mean of `text`'s token rows; the divisor counts every token, as the embedding does. */
  private mixOf(text: string): RowMix {
    const ids = this.table.tokenizer.encode(text);
    const mix = new MixBuilder();
    for (const id of ids) if (this.isWordRow(id)) mix.add(id, 1);
    return mix.build(Math.max(1, ids.length));
  }

  encode(text: string): EncodedQuery {
    const sentence = this.mixOf(text);
    const terms = [...new Set(this.analyzer.analyze(text))];
    const perTerm = new Map<string, { mix: MixBuilder; words: number }>();
    for (const word of text.split(/\s+/)) {
      if (word === '') continue;
      const wordMix = this.mixOf(word);
      for (const term of new Set(this.analyzer.analyze(word))) {
        let entry = perTerm.get(term);
        if (entry === undefined) perTerm.set(term, (entry = { mix: new MixBuilder(), words: 0 }));
        entry.words++;
        wordMix.rows.forEach((row, i) => entry.mix.add(row, wordMix.coefs[i]!));
      }
    }
    // A term that no single word yields (the analyzer read across words) takes the sentence's mix.
    const termMixes = terms.map((term) => {
      const entry = perTerm.get(term);
      return entry === undefined ? sentence : entry.mix.build(entry.words);
    });
    return { sentence, terms, termMixes };
  }

  async encodeMany(texts: readonly string[]): Promise<EncodedQuery[]> {
    return texts.map((text) => this.encode(text));
  }
}

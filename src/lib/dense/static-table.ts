/**
 * The compact form of the project's static models (registry kind `static-table`): a vector table of int8
 * rows with one float scale per row, a vocabulary in a plain text file, and an embedding that is a lookup
 * and an average in TypeScript — no ONNX session, no WebGPU: for a static model there is nothing to
 * compute but a weighted sum of table rows, which the CPU does faster than any session call.
 *
 * Files of a model folder (scripts/models/glove-static.ts writes them):
 *
 *   config.json     { retrieval_playground: { kind: 'static-table', table: StaticTableHeader, … } }
 *   vocab.txt       one token per line; line i is token id i ([PAD], [UNK], then words by frequency rank)
 *   table.q8.bin    rows × float32 scales (little-endian), then rows × dim int8 values
 *
 * Row r of the table is scale[r] · q[r]; the embedding of a text is the mean of its tokens' rows (every
 * token counts, [UNK] and punctuation rows being zero), exactly the masked mean of the ONNX graph this form
 * replaces; the embedder then L2-normalizes it when the model asks for it.
 */
import { createRowSummer, type RowSummer } from './row-sum.ts';
import { VocabIndex, WordTokenizer } from './word-tokenizer.ts';

export const STATIC_TABLE_FORMAT = 'rp-static-table-q8';
export const STATIC_TABLE_FILES = { config: 'config.json', vocab: 'vocab.txt', table: 'table.q8.bin' } as const;

/** `retrieval_playground.table` of config.json. */
export interface StaticTableHeader {
  format: typeof STATIC_TABLE_FORMAT;
  /** Rows of the table = lines of vocab.txt. */
  rows: number;
  dim: number;
  unkToken: string;
  /** Tokens matched verbatim before lowercasing (the tokenizer's added tokens). */
  addedTokens: string[];
  /** Tokens per text (truncation). */
  maxLength: number;
}

export interface StaticTable {
  header: StaticTableHeader;
  tokenizer: WordTokenizer;
  /** [rows] per-row scales. */
  scales: Float32Array;
  /** [rows, dim] row-major int8 values. */
  values: Int8Array;
}

/** The header inside a config.json, or a message saying what is wrong with it. */
export function staticTableHeader(config: unknown, where: string): StaticTableHeader {
  const header = (config as { retrieval_playground?: { table?: Partial<StaticTableHeader> } } | null)?.retrieval_playground?.table;
  if (header?.format !== STATIC_TABLE_FORMAT) throw new Error(`${where}: not a static-table model (retrieval_playground.table.format is not "${STATIC_TABLE_FORMAT}")`);
  const { rows, dim, unkToken, addedTokens, maxLength } = header;
  if (!Number.isInteger(rows) || !Number.isInteger(dim) || !Number.isInteger(maxLength) || typeof unkToken !== 'string' || !Array.isArray(addedTokens)) {
    throw new Error(`${where}: retrieval_playground.table needs integer rows, dim and maxLength, a string unkToken and an addedTokens list`);
  }
  return header as StaticTableHeader;
}

/** Builds the table from the three files' contents; sizes are checked against the header. */
export function parseStaticTable(header: StaticTableHeader, vocabText: string, table: Uint8Array, where: string): StaticTable {
  const vocab = new VocabIndex(vocabText);
  if (vocab.size !== header.rows) {
    throw new Error(`${where}${STATIC_TABLE_FILES.vocab}: ${vocab.size} tokens, config.json says ${header.rows}`);
  }
  const expected = header.rows * 4 + header.rows * header.dim;
  if (table.byteLength !== expected) {
    throw new Error(`${where}${STATIC_TABLE_FILES.table}: ${table.byteLength} bytes, expected ${expected} (${header.rows} rows × ${header.dim}); the file may be cut short — run npm run models again`);
  }
  // Copied once so the float view is aligned whatever buffer offset the bytes came at.
  const bytes = table.byteOffset % 4 === 0 ? table : table.slice();
  const scales = new Float32Array(bytes.buffer, bytes.byteOffset, header.rows);
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + header.rows * 4, header.rows * header.dim);
  const tokenizer = new WordTokenizer(vocab, { unkToken: header.unkToken, addedTokens: header.addedTokens, maxLength: header.maxLength });
  return { header, tokenizer, scales, values };
}

/**
 * Embeds texts with one table: the mean of the rows of a text's tokens. Its buffers are reused from text
 * to text (one encoder per worker or CLI run; not re-entrant).
 */
export class StaticTableEncoder {
  private readonly ids: Int32Array;
  /** Per row: the text number it was last counted for, and how often it occurs in that text. */
  private readonly seenIn: Int32Array;
  private readonly counts: Int32Array;
  private readonly unique: Int32Array;
  private readonly sum: Float64Array;
  /** The weighted row sum in WebAssembly SIMD (row-sum.ts), where the engine has it. */
  private readonly summer: RowSummer | undefined;
  private textNumber = 0;

  constructor(
    readonly table: StaticTable,
    options: { wasm?: boolean } = {},
  ) {
    const { rows, dim, maxLength } = table.header;
    this.ids = new Int32Array(maxLength);
    this.seenIn = new Int32Array(rows).fill(-1);
    this.counts = new Int32Array(rows);
    this.summer = options.wasm === false ? undefined : createRowSummer(table.values, dim, maxLength);
    this.unique = this.summer?.ids ?? new Int32Array(maxLength);
    this.sum = this.summer?.sum ?? new Float64Array(dim);
  }

  get dim(): number {
    return this.table.header.dim;
  }

  /** True when the row sums run in WebAssembly. */
  get wasm(): boolean {
    return this.summer !== undefined;
  }

  /**
   * Mean of the rows of `text`'s tokens into `out` (length dim, overwritten); returns the token count. A
   * text without tokens gives a zero vector. Each distinct token's row is added once, times its count:
   * repeated words ("the", "of") cost one row each.
   */
  embedInto(text: string, out: Float32Array): number {
    const { scales, values } = this.table;
    const dim = this.table.header.dim;
    const { ids, seenIn, counts, unique, sum, summer } = this;
    const count = this.table.tokenizer.encodeInto(text, ids);
    const textNumber = (this.textNumber = (this.textNumber + 1) | 0);
    let distinct = 0;
    for (let t = 0; t < count; t++) {
      const id = ids[t]!;
      if (seenIn[id] === textNumber) counts[id]!++;
      else {
        seenIn[id] = textNumber;
        counts[id] = 1;
        unique[distinct++] = id;
      }
    }
    if (summer !== undefined) {
      const { weights } = summer;
      for (let u = 0; u < distinct; u++) {
        const id = unique[u]!;
        weights[u] = scales[id]! * counts[id]!;
      }
      summer.accumulate(distinct);
    } else {
      sum.fill(0);
      for (let u = 0; u < distinct; u++) {
        const id = unique[u]!;
        const weight = scales[id]! * counts[id]!;
        const base = id * dim;
        let c = 0;
        // Unrolled by four: fewer loop checks in the innermost loop of the embedding.
        for (; c + 3 < dim; c += 4) {
          sum[c]! += weight * values[base + c]!;
          sum[c + 1]! += weight * values[base + c + 1]!;
          sum[c + 2]! += weight * values[base + c + 2]!;
          sum[c + 3]! += weight * values[base + c + 3]!;
        }
        for (; c < dim; c++) sum[c]! += weight * values[base + c]!;
      }
    }
    // The ONNX graph divided by max(count, 1e-9); a zero vector stays zero either way.
    const divisor = count > 0 ? count : 1;
    for (let c = 0; c < dim; c++) out[c] = sum[c]! / divisor;
    return count;
  }
}

/** Reads one file of the model folder: a URL path in the browser, a file path in Node. */
export type ModelFileReader = (path: string) => Promise<Uint8Array>;

/** Loads config.json, vocab.txt and table.q8.bin from `base` (ending in '/'). */
export async function loadStaticTable(base: string, read: ModelFileReader): Promise<StaticTable> {
  const [configBytes, vocabBytes, tableBytes] = await Promise.all([
    read(`${base}${STATIC_TABLE_FILES.config}`),
    read(`${base}${STATIC_TABLE_FILES.vocab}`),
    read(`${base}${STATIC_TABLE_FILES.table}`),
  ]);
  const decoder = new TextDecoder();
  let config: unknown;
  try {
    config = JSON.parse(decoder.decode(configBytes));
  } catch (error) {
    throw new SyntaxError(`${base}${STATIC_TABLE_FILES.config} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const header = staticTableHeader(config, `${base}${STATIC_TABLE_FILES.config}`);
  return parseStaticTable(header, decoder.decode(vocabBytes), tableBytes, base);
}

/**
 * A frozen transformer as the encoder of the paper's eq. 1: enc(q)₀ is the model's sentence vector (its
 * registry pooling of the last hidden state: mean, or the [CLS] token's), enc(q)ᵢ of a BM25 term is the
 * mean of the last hidden states of the tokens of the whitespace-separated word(s) it was analyzed from —
 * or of its own token, where the analyzer's terms of a word are the tokenizer's tokens one to one (the
 * wordpiece analyzer over the model's vocabulary). The session runs once per batch of new texts; their
 * outputs are kept, so training (which updates only W and u) and ranking read them without running again.
 */
import type { Analyzer } from '../analysis/analyzer.ts';
import type { TransformerSession } from '../dense/embedder.ts';
import type { EmbeddingDtype } from '../dense/registry.ts';
import { floatValues, poolOutput, type OutputTensor } from '../dense/pooling.ts';
import { encodeSingle } from '../dense/single-encoding.ts';
import type { PaddedBatch } from '../dense/token-ids.ts';
import type { EncodedQuery, QueryEncoder, RowMix } from './encoder.ts';

/** Texts per session run: queries are short, so a batch's tensors stay small. */
const BATCH_TEXTS = 32;
/** Encodings kept (the oldest dropped first, never those of the current call). */
const KEPT_TEXTS = 20_000;

const NO_ROWS = new Int32Array(0);
const NO_COEFS = new Float32Array(0);

function vectorMix(vector: Float32Array): RowMix {
  return { rows: NO_ROWS, coefs: NO_COEFS, vector };
}

/** A text as the session reads it: its words, where each word's tokens start, and the ids with special tokens. */
interface TokenizedText {
  text: string;
  words: string[];
  /** Per word: [start, end) of its tokens among the text's own tokens. */
  spans: Array<[number, number]>;
  /** Per word: its token ids. */
  wordIds: number[][];
  sequence: number[];
}

export class TransformerQueryEncoder implements QueryEncoder {
  readonly rows = 0;
  readonly trainableRows = false;
  private readonly kept = new Map<string, EncodedQuery>();
  private readonly vocab: Map<string, number>;

  private constructor(
    readonly id: string,
    readonly analyzer: Analyzer,
    private readonly session: TransformerSession,
    readonly dim: number,
    /** The weights the session loaded, recorded in model files. */
    readonly dtype: EmbeddingDtype,
  ) {
    this.vocab = session.tokenizer.get_vocab();
  }

  /** The encoder over an open session; its dimension read off one probe text. */
  static async open(id: string, analyzer: Analyzer, session: TransformerSession, dtype: EmbeddingDtype): Promise<TransformerQueryEncoder> {
    const probe = new TransformerQueryEncoder(id, analyzer, session, 0, dtype);
    const [encoded] = await probe.encodeMany(['probe']);
    return new TransformerQueryEncoder(id, analyzer, session, encoded!.sentence.vector!.length, dtype);
  }

  readRow(row: number): void {
    throw new Error(`${this.id}: a transformer encoder has no table rows (row ${row} asked for)`);
  }

  encode(text: string): EncodedQuery {
    const encoded = this.kept.get(text);
    if (encoded === undefined) throw new Error(`${this.id}: "${text}" was not encoded yet (a transformer encodes in batches: encodeMany)`);
    return encoded;
  }

  async encodeMany(texts: readonly string[], signal?: AbortSignal): Promise<EncodedQuery[]> {
    const missing = [...new Set(texts)].filter((text) => !this.kept.has(text)).map((text) => this.tokenize(text));
    // Similar lengths together: less padding.
    missing.sort((x, y) => x.sequence.length - y.sequence.length);
    for (let start = 0; start < missing.length; start += BATCH_TEXTS) {
      signal?.throwIfAborted();
      const batch = missing.slice(start, start + BATCH_TEXTS);
      const encoded = await this.session.run(
        batch.map((text) => text.sequence),
        (hidden, padded) => this.read(batch, hidden, padded),
      );
      batch.forEach((tokenized, i) => this.kept.set(tokenized.text, encoded[i]!));
    }
    const result = texts.map((text) => this.encode(text));
    // The current call's texts last, so the oldest others are dropped first.
    texts.forEach((text, i) => {
      this.kept.delete(text);
      this.kept.set(text, result[i]!);
    });
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= Math.max(KEPT_TEXTS, texts.length)) break;
      this.kept.delete(oldest);
    }
    return result;
  }

  dispose(): Promise<void> {
    return this.session.dispose();
  }

  private tokenize(text: string): TokenizedText {
    const words = text.split(/\s+/).filter((word) => word !== '');
    const own: number[] = [];
    const spans: Array<[number, number]> = [];
    const wordIds = words.map((word) => {
      const ids = this.session.tokenizer.encode(word, { add_special_tokens: false });
      spans.push([own.length, own.length + ids.length]);
      for (const id of ids) own.push(id);
      return ids;
    });
    return { text, words, spans, wordIds, sequence: encodeSingle(this.session.template, own, this.session.spec.maxLength) };
  }

  /** The encodings of a batch from its output: [rows, width, dim] token states. */
  private read(batch: readonly TokenizedText[], hidden: OutputTensor, padded: PaddedBatch): EncodedQuery[] {
    const sentences = poolOutput(hidden, padded.attentionMask, batch.length, this.session.spec.pooling);
    const { dim } = sentences;
    if (this.dim !== 0 && dim !== this.dim) throw new Error(`${this.id}: the model gave ${dim}-dimensional states, not ${this.dim}`);
    const states = floatValues(hidden);
    const prefix = this.session.template.prefix.length;
    return batch.map((text, row) => {
      const own = text.sequence.length - prefix - this.session.template.suffix.length;
      /** The mean state of own tokens [start, end) (cut where the sequence was); undefined when none is left. */
      const meanOf = (start: number, end: number): Float32Array | undefined => {
        const stop = Math.min(end, own);
        if (stop <= start) return undefined;
        const mean = new Float32Array(dim);
        for (let t = start; t < stop; t++) {
          const at = (row * padded.width + prefix + t) * dim;
          for (let c = 0; c < dim; c++) mean[c]! += states[at + c]! / (stop - start);
        }
        return mean;
      };
      const sentence = vectorMix(sentences.data.slice(row * dim, (row + 1) * dim));
      const sums = new Map<string, { sum: Float32Array; count: number }>();
      const add = (term: string, vector: Float32Array | undefined) => {
        if (vector === undefined) return;
        let entry = sums.get(term);
        if (entry === undefined) sums.set(term, (entry = { sum: new Float32Array(dim), count: 0 }));
        for (let c = 0; c < dim; c++) entry.sum[c]! += vector[c]!;
        entry.count++;
      };
      text.words.forEach((word, w) => {
        const [start, end] = text.spans[w]!;
        const terms = this.analyzer.analyze(word);
        const ids = text.wordIds[w]!;
        if (terms.length === ids.length && terms.every((term, k) => this.vocab.get(term) === ids[k])) {
          terms.forEach((term, k) => add(term, meanOf(start + k, start + k + 1)));
        } else {
          const state = meanOf(start, end);
          for (const term of new Set(terms)) add(term, state);
        }
      });
      const terms = [...new Set(this.analyzer.analyze(text.text))];
      // A term no single word yields (the analyzer read across words), or whose tokens were cut, takes the sentence.
      const termMixes = terms.map((term) => {
        const entry = sums.get(term);
        return entry === undefined ? sentence : vectorMix(entry.sum.map((x) => x / entry.count));
      });
      return { sentence, terms, termMixes };
    });
  }
}

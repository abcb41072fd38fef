/**
 * A model2vec-layout test model (as minishlab/potion-* export it: flat `input_ids` [N] + per-text `offsets`
 * [B] → `embeddings` [B, D], an EmbeddingBag mean), built in a temp folder over a small word table.
 *
 * The bag mean without loops: member[n, b] = [pos_n ≥ off_b] − [pos_n ≥ off_{b+1}] (one-hot bag of token n),
 * embeddings = memberᵀ · E[ids] / Σ_n member[n, b].
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataType, encodeModel, floatTensor, int64Tensor, node, tensor, valueInfo } from '../../../scripts/models/onnx-builder.ts';
import { wordTokenizerConfig, wordTokenizerJson, type StaticTable } from '../../../scripts/models/glove-static.ts';

function model2vecGraph(t: StaticTable): Uint8Array {
  return encodeModel({
    name: 'model2vec_test',
    doc: 'EmbeddingBag mean over flat input_ids with offsets (test fixture)',
    inputs: [valueInfo('input_ids', DataType.INT64, ['num_tokens']), valueInfo('offsets', DataType.INT64, ['batch_size'])],
    outputs: [valueInfo('embeddings', DataType.FLOAT, ['batch_size', t.dim])],
    initializers: [
      floatTensor('table', [t.vocab.length, t.dim], t.table),
      tensor('zero', DataType.INT64, [], BigInt64Array.of(0n)),
      tensor('one', DataType.INT64, [], BigInt64Array.of(1n)),
      int64Tensor('axis_0', [0]),
      int64Tensor('axis_1', [1]),
      int64Tensor('slice_start', [1]),
      tensor('slice_end', DataType.INT64, [1], BigInt64Array.of(9223372036854775807n)),
      int64Tensor('pad_last_column', [0, 0, 0, 1]),
      floatTensor('eps', [1], Float32Array.of(1e-9)),
    ],
    nodes: [
      node('Gather', ['table', 'input_ids'], ['emb'], { axis: 0 }),
      node('Shape', ['input_ids'], ['n_shape']),
      node('Gather', ['n_shape', 'zero'], ['n'], { axis: 0 }),
      node('Range', ['zero', 'n', 'one'], ['positions']),
      node('Unsqueeze', ['positions', 'axis_1'], ['pos_col']),
      node('Unsqueeze', ['offsets', 'axis_0'], ['off_row']),
      node('GreaterOrEqual', ['pos_col', 'off_row'], ['started']),
      node('Cast', ['started'], ['started_f'], { to: DataType.FLOAT }),
      node('Slice', ['started_f', 'slice_start', 'slice_end', 'axis_1'], ['next_started']),
      node('Pad', ['next_started', 'pad_last_column'], ['next_padded']),
      node('Sub', ['started_f', 'next_padded'], ['member']),
      node('Transpose', ['member'], ['member_t'], { perm: [1, 0] }),
      node('MatMul', ['member_t', 'emb'], ['sums']),
      node('ReduceSum', ['member_t', 'axis_1'], ['counts'], { keepdims: 1 }),
      node('Max', ['counts', 'eps'], ['counts_safe']),
      node('Div', ['sums', 'counts_safe'], ['embeddings']),
    ],
  });
}

/**
 * Writes `<parent>/<name>/` with config.json, tokenizer files and onnx/model.onnx; the tokenizer is a
 * word-level one over the table's vocabulary unless given (a subword one whose ids are the table's rows).
 */
export function writeModel2vecModel(parent: string, name: string, table: StaticTable, tokenizer?: { json: object; config: object }): void {
  const dir = join(parent, name);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), model2vecGraph(table));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer?.json ?? wordTokenizerJson(table.vocab)));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizer?.config ?? wordTokenizerConfig(512)));
  // Like the hub's potion repositories: no transformers model_type of their own.
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ architectures: ['StaticModel'], hidden_dim: table.dim }));
}

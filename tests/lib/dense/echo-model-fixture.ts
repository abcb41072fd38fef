/**
 * Test models that show what the embedder fed them, and the tokenizer files they are written with.
 *
 * The echo model returns, per text, (input id + 1 + 1,000,000 · token type) for every attended position,
 * then zeros up to ECHO_WIDTH: a [batch, ECHO_WIDTH] output that the embedder (pooling 'none', no
 * normalization) hands back as the text's vector, so a test reads back the exact ids, mask and segment ids
 * the session received. Float32 holds these integers exactly (all below 2^24).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataType, encodeModel, floatTensor, int64Tensor, node, valueInfo } from '../../../scripts/models/onnx-builder.ts';
import { shared } from '../../shared-dir.ts';

export const ECHO_WIDTH = 600;
const TYPE_MARK = 1_000_000;

export function echoModel(withTokenTypes: boolean): Uint8Array {
  const typeInput = withTokenTypes ? [valueInfo('token_type_ids', DataType.INT64, ['batch_size', 'sequence_length'])] : [];
  const typeNodes = withTokenTypes
    ? [
        node('Cast', ['token_type_ids'], ['types_f'], { to: DataType.FLOAT }),
        node('Mul', ['types_f', 'type_mark'], ['types_marked']),
        node('Add', ['ids_plus_one', 'types_marked'], ['code']),
      ]
    : [node('Identity', ['ids_plus_one'], ['code'])];
  return encodeModel({
    name: 'echo',
    doc: 'Echoes (input id + 1 + 1e6 · token type) × attention mask, right-padded with zeros (test model).',
    inputs: [
      valueInfo('input_ids', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', DataType.INT64, ['batch_size', 'sequence_length']),
      ...typeInput,
    ],
    outputs: [valueInfo('last_hidden_state', DataType.FLOAT, ['batch_size', ECHO_WIDTH])],
    initializers: [
      floatTensor('one_f', [1], Float32Array.of(1)),
      floatTensor('type_mark', [1], Float32Array.of(TYPE_MARK)),
      int64Tensor('width', [ECHO_WIDTH]),
      int64Tensor('one_start', [1]),
      int64Tensor('two_end', [2]),
      int64Tensor('axis_0', [0]),
      int64Tensor('zero_pads', [0, 0, 0]),
    ],
    nodes: [
      node('Cast', ['input_ids'], ['ids_f'], { to: DataType.FLOAT }),
      node('Add', ['ids_f', 'one_f'], ['ids_plus_one']),
      ...typeNodes,
      node('Cast', ['attention_mask'], ['mask_f'], { to: DataType.FLOAT }),
      node('Mul', ['code', 'mask_f'], ['marked']),
      node('Shape', ['input_ids'], ['shape']),
      node('Slice', ['shape', 'one_start', 'two_end', 'axis_0'], ['length']),
      node('Sub', ['width', 'length'], ['pad_right']),
      node('Concat', ['zero_pads', 'pad_right'], ['pads'], { axis: 0 }),
      node('Pad', ['marked', 'pads'], ['last_hidden_state']),
    ],
  });
}

/** What an echo row says the session received: the attended ids in order, and whether any had token type ≠ 0. */
export function echoedIds(row: Float32Array): { ids: number[]; typed: boolean } {
  const ids: number[] = [];
  let typed = false;
  for (const value of row) {
    if (value === 0) break;
    typed ||= value >= TYPE_MARK;
    ids.push((value % TYPE_MARK) - 1);
  }
  return { ids, typed };
}

export interface TokenizerFiles {
  json: Record<string, unknown>;
  config: Record<string, unknown>;
}

/** A real tokenizer of SHARED_DIR/tokenizers (all-MiniLM-L6-v2, gte-small). */
export function sharedTokenizer(name: string): TokenizerFiles {
  const dir = shared('tokenizers', name);
  const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
  return { json: read('tokenizer.json'), config: read('tokenizer_config.json') };
}

/** Writes `<parent>/<name>/` with config.json, the tokenizer files and onnx/ files as given. */
export function writeModelFolder(parent: string, name: string, files: { config: object; tokenizer: TokenizerFiles; onnx: Record<string, Uint8Array> }): void {
  const dir = join(parent, name);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(files.config));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(files.tokenizer.json));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(files.tokenizer.config));
  for (const [file, bytes] of Object.entries(files.onnx)) writeFileSync(join(dir, 'onnx', file), bytes);
}

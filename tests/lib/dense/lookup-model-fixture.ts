/**
 * A BERT-shaped test model whose token states are rows of a table (multiples of 1/8, exact in fp16), with
 * all-MiniLM-L6-v2's real tokenizer: model.onnx outputs them as float32, model_fp16.onnx as float16 (as
 * exports with fp16 inputs and outputs do). Its mean-pooled vector is computable by hand from the ids the
 * model reads ([CLS], the text's first maxLength − 2 tokens, [SEP]).
 */
import { DataType, encodeModel, floatTensor, node, valueInfo } from '../../../scripts/models/onnx-builder.ts';
import { sharedTokenizer, writeModelFolder } from './echo-model-fixture.ts';

export const LOOKUP_DIM = 4;
export const lookupTokenizer = sharedTokenizer('all-MiniLM-L6-v2');
export const lookupVocab = (lookupTokenizer.json.model as { vocab: Record<string, number> }).vocab;
const rows = Object.keys(lookupVocab).length;
export const lookupTable = Float32Array.from({ length: rows * LOOKUP_DIM }, (_, i) => (((i * 7) % 64) - 32) / 8);

export function lookupModel(output: 'float32' | 'float16'): Uint8Array {
  const half = output === 'float16';
  return encodeModel({
    name: `lookup_${output}`,
    doc: 'Token states = table rows (test model).',
    inputs: [
      valueInfo('input_ids', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('token_type_ids', DataType.INT64, ['batch_size', 'sequence_length']),
    ],
    outputs: [valueInfo('last_hidden_state', half ? DataType.FLOAT16 : DataType.FLOAT, ['batch_size', 'sequence_length', LOOKUP_DIM])],
    initializers: [floatTensor('table', [rows, LOOKUP_DIM], lookupTable)],
    nodes: half
      ? [node('Gather', ['table', 'input_ids'], ['states'], { axis: 0 }), node('Cast', ['states'], ['last_hidden_state'], { to: DataType.FLOAT16 })]
      : [node('Gather', ['table', 'input_ids'], ['last_hidden_state'], { axis: 0 })],
  });
}

/** Writes the model folder `<parent>/<id>/` with both files. */
export function writeLookupModel(parent: string, id: string): void {
  writeModelFolder(parent, id, {
    config: { model_type: 'bert', architectures: ['BertModel'], max_position_embeddings: 512 },
    tokenizer: lookupTokenizer,
    onnx: { 'model.onnx': lookupModel('float32'), 'model_fp16.onnx': lookupModel('float16') },
  });
}

/** The mean of the table rows of [CLS], the first maxLength − 2 of `ownIds`, [SEP]. */
export function lookupMean(ownIds: readonly number[], maxLength: number): number[] {
  const ids = [lookupVocab['[CLS]']!, ...ownIds.slice(0, maxLength - 2), lookupVocab['[SEP]']!];
  return Array.from({ length: LOOKUP_DIM }, (_, k) => ids.reduce((sum, i) => sum + lookupTable[i * LOOKUP_DIM + k]!, 0) / ids.length);
}

/**
 * A small ONNX graph writer over the protobuf classes of `onnx-proto` (onnx.proto3, IR version 8). It only
 * knows what the project's generated models need: dense initializers, typed graph inputs/outputs with
 * symbolic dimensions, and nodes with int/float/ints attributes. Opset 17 (the ORT web and node builds both
 * implement it fully for the operators used here).
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

const OPSET = 17;
export const DataType = onnx.TensorProto.DataType;

type Dim = number | string;

/** A named initializer: its bytes are stored little-endian in `rawData`, as ONNX requires. */
export function tensor(name: string, dataType: number, dims: number[], data: ArrayBufferView): onnxProto.onnx.ITensorProto {
  const rawData = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return { name, dataType, dims, rawData };
}

export function floatTensor(name: string, dims: number[], data: Float32Array): onnxProto.onnx.ITensorProto {
  return tensor(name, DataType.FLOAT, dims, data);
}

export function int64Tensor(name: string, values: number[]): onnxProto.onnx.ITensorProto {
  return tensor(name, DataType.INT64, [values.length], BigInt64Array.from(values.map(BigInt)));
}

/** A graph input or output; string dims are symbolic (`batch_size`, `sequence_length`). */
export function valueInfo(name: string, elemType: number, dims: Dim[]): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

type AttributeValue = number | number[] | { float: number };

/** One node; integer attributes are given as numbers, float ones as `{ float }`, int lists as arrays. */
export function node(
  opType: string,
  inputs: string[],
  outputs: string[],
  attributes: Record<string, AttributeValue> = {},
): onnxProto.onnx.INodeProto {
  const attribute = Object.entries(attributes).map(([name, value]): onnxProto.onnx.IAttributeProto => {
    if (Array.isArray(value)) return { name, type: onnx.AttributeProto.AttributeType.INTS, ints: value };
    if (typeof value === 'object') return { name, type: onnx.AttributeProto.AttributeType.FLOAT, f: value.float };
    return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
  });
  return { opType, input: inputs, output: outputs, name: `${opType}_${outputs[0] ?? ''}`, attribute };
}

export interface GraphSpec {
  name: string;
  doc: string;
  inputs: onnxProto.onnx.IValueInfoProto[];
  outputs: onnxProto.onnx.IValueInfoProto[];
  initializers: onnxProto.onnx.ITensorProto[];
  nodes: onnxProto.onnx.INodeProto[];
}

/** Serializes a complete model (IR 8, default domain at OPSET). */
export function encodeModel(spec: GraphSpec): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'retrieval-playground scripts/models',
    producerVersion: '1',
    docString: spec.doc,
    opsetImport: [{ domain: '', version: OPSET }],
    graph: {
      name: spec.name,
      input: spec.inputs,
      output: spec.outputs,
      initializer: spec.initializers,
      node: spec.nodes,
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Per-row symmetric int8 quantization: q = round(x / s), s = max|x| / 127 (rows of zeros get s = 1). */
export function quantizeRows(data: Float32Array, rows: number, cols: number): { q: Int8Array; scales: Float32Array } {
  const q = new Int8Array(rows * cols);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let c = 0; c < cols; c++) max = Math.max(max, Math.abs(data[r * cols + c] ?? 0));
    const s = max > 0 ? max / 127 : 1;
    scales[r] = s;
    for (let c = 0; c < cols; c++) q[r * cols + c] = Math.round((data[r * cols + c] ?? 0) / s);
  }
  return { q, scales };
}

/**
 * Vector files for tests, written by the tests themselves: Pyserini's encoded-corpus JSON lines, Parquet
 * with an id and a list<float> column (hyparquet-writer), `.npy` (NumPy format 1.0, C order) with an ids
 * file; and the brute-force cosine top-k of raw (not normalized) vectors, computed here in float64, as the
 * reference a ranking from imported vectors must equal.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { VectorFileInput } from '../../../src/lib/import/vector-file.ts';
import { toHalf } from '../../../src/lib/dense/vector-codec.ts';

/** Seeded vectors in [-1, 1) (mulberry32), rounded to float32 as a file would hold them. */
export function randomVectors(count: number, dim: number, seed: number): number[][] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => Array.from({ length: dim }, () => Math.fround(next() * 2 - 1)));
}

/** Pyserini's `embeddings.jsonl`: one `{"id", "contents", "vector"}` per line. */
export function pyseriniJsonl(ids: readonly string[], vectors: readonly number[][], contents: (id: string) => string = () => ''): string {
  return ids.map((id, i) => JSON.stringify({ id, contents: contents(id), vector: vectors[i] })).join('\n') + '\n';
}

/** A Parquet file with `id` (string) and `embedding` (list<float>) columns, `rowGroupSize` rows per group. */
export function parquetVectors(ids: readonly string[], vectors: readonly number[][], rowGroupSize = 3): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'id', data: [...ids] },
      { name: 'embedding', data: vectors.map((v) => [...v]) },
    ],
    schema: [
      { name: 'root', num_children: 2 },
      { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'embedding', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type: 'FLOAT', repetition_type: 'REQUIRED' },
    ],
    rowGroupSize,
  });
  return new Uint8Array(buffer);
}

/** An `.npy` file (format 1.0) of the rows, little-endian float16, float32 or float64, C order. */
export function npyVectors(vectors: readonly number[][], dtype: '<f2' | '<f4' | '<f8' = '<f4', shape?: readonly number[]): Uint8Array {
  const rows = vectors.length;
  const dim = vectors[0]?.length ?? 0;
  const dims = shape ?? [rows, dim];
  let header = `{'descr': '${dtype}', 'fortran_order': False, 'shape': (${dims.join(', ')}${dims.length === 1 ? ',' : ''}), }`;
  // The header ends in a newline and pads magic + length + header to a multiple of 64 bytes.
  const unpadded = 10 + header.length + 1;
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const size = { '<f2': 2, '<f4': 4, '<f8': 8 }[dtype];
  const bytes = new Uint8Array(10 + header.length + rows * dim * size);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  const view = new DataView(bytes.buffer);
  view.setUint16(8, header.length, true);
  bytes.set(new TextEncoder().encode(header), 10);
  let offset = 10 + header.length;
  for (const row of vectors) {
    for (const value of row) {
      if (dtype === '<f2') view.setUint16(offset, toHalf(value), true);
      else if (dtype === '<f4') view.setFloat32(offset, value, true);
      else view.setFloat64(offset, value, true);
      offset += size;
    }
  }
  return bytes;
}

/** A file in memory as the reader's input. */
export function memoryFile(name: string, content: string | Uint8Array): VectorFileInput {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return {
    name,
    size: bytes.length,
    open: async () =>
      (async function* () {
        yield bytes;
      })(),
    random: async () => ({ byteLength: bytes.length, slice: (start: number, end?: number) => bytes.slice(start, end).buffer as ArrayBuffer }),
  };
}

/** Brute-force cosine top-k of one raw query vector over raw document vectors (float64, ties by id). */
export function bruteForceCosine(query: readonly number[], ids: readonly string[], vectors: readonly number[][], k: number): Array<{ docId: string; score: number }> {
  const norm = (v: readonly number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
  const qn = norm(query);
  return ids
    .map((docId, i) => ({ docId, score: vectors[i]!.reduce((sum, x, j) => sum + x * query[j]!, 0) / (norm(vectors[i]!) * qn) }))
    .sort((a, b) => b.score - a.score || (a.docId < b.docId ? -1 : 1))
    .slice(0, k);
}

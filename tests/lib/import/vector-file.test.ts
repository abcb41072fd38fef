import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/lib/data/errors.ts';
import { readVectorFile, vectorFileFormat, type VectorFileInput } from '../../../src/lib/import/vector-file.ts';
import { memoryFile, npyVectors, parquetVectors, pyseriniJsonl, randomVectors } from './vector-fixtures.ts';

// The three vector formats (src/lib/import/vector-file.ts) read from files the tests write: each gives
// back the ids and values it was written with; each bad file is a ParseError naming the file and line/row.

const IDS = ['d1', 'd2', 'd3', 'd4', 'd5'];
const VECTORS = randomVectors(IDS.length, 6, 7);

async function failure(file: VectorFileInput, ids?: VectorFileInput): Promise<ParseError> {
  const error = await readVectorFile({ file, ...(ids === undefined ? {} : { ids }) }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ParseError);
  return error as ParseError;
}

/** A file whose stream gives its bytes `size` at a time. */
function chunkedFile(name: string, bytes: Uint8Array, size: number, onChunk = () => {}): VectorFileInput {
  return {
    name,
    size: bytes.length,
    open: async () =>
      (async function* () {
        for (let at = 0; at < bytes.length; at += size) {
          onChunk();
          yield bytes.slice(at, at + size);
        }
      })(),
  };
}

function rowsOf(data: Float32Array, dim: number): number[][] {
  return Array.from({ length: data.length / dim }, (_, r) => [...data.subarray(r * dim, (r + 1) * dim)]);
}

describe('readVectorFile', () => {
  it('picks the format by extension', () => {
    expect(vectorFileFormat('embeddings.jsonl')).toBe('jsonl');
    expect(vectorFileFormat('part-0.json.gz')).toBe('jsonl');
    expect(vectorFileFormat('train.parquet')).toBe('parquet');
    expect(vectorFileFormat('corpus.npy')).toBe('npy');
    expect(vectorFileFormat('corpus.txt')).toBeUndefined();
  });

  it("reads Pyserini's encoded corpus (id, contents, vector)", async () => {
    const rows = await readVectorFile({ file: memoryFile('embeddings.jsonl', pyseriniJsonl(IDS, VECTORS, (id) => `text of ${id}`)) });
    expect(rows.ids).toEqual(IDS);
    expect(rows.vectors.dim).toBe(6);
    expect(rowsOf(rows.vectors.data, 6)).toEqual(VECTORS);
  });

  it('reads Parquet with an id and a list<float> embedding column over several row groups', async () => {
    const rows = await readVectorFile({ file: memoryFile('vectors.parquet', parquetVectors(IDS, VECTORS, 2)) });
    expect(rows.ids).toEqual(IDS);
    expect(rowsOf(rows.vectors.data, 6)).toEqual(VECTORS);
  });

  it('reads .npy float32 and float64 exactly, float16 to half precision, with its ids file', async () => {
    const ids = memoryFile('ids.txt', IDS.join('\n') + '\n');
    for (const dtype of ['<f4', '<f8'] as const) {
      const rows = await readVectorFile({ file: memoryFile('v.npy', npyVectors(VECTORS, dtype)), ids });
      expect(rows.ids).toEqual(IDS);
      expect(rowsOf(rows.vectors.data, 6)).toEqual(VECTORS);
    }
    const half = await readVectorFile({ file: memoryFile('v.npy', npyVectors(VECTORS, '<f2')), ids });
    half.vectors.data.forEach((value, i) => expect(Math.abs(value - VECTORS[Math.floor(i / 6)]![i % 6]!)).toBeLessThanOrEqual(2 ** -11));
  });

  it('streams .npy (never read whole): in chunks of any size, cutting the header and values, it gives what it gives whole; a short file is named truncated', async () => {
    const ids = memoryFile('ids.txt', IDS.join('\n'));
    for (const dtype of ['<f2', '<f4', '<f8'] as const) {
      const bytes = npyVectors(VECTORS, dtype);
      const whole = await readVectorFile({ file: memoryFile('v.npy', bytes), ids });
      for (const size of [1, 3, 7, 64]) {
        const rows = await readVectorFile({ file: chunkedFile('v.npy', bytes, size), ids });
        expect(rows.vectors.data, `${dtype} in chunks of ${size}`).toEqual(whole.vectors.data);
        expect(rows.fingerprint).toBe(whole.fingerprint);
      }
      const short = bytes.subarray(0, bytes.length - 3);
      const need = IDS.length * 6 * Number(dtype.slice(2));
      expect((await failure(chunkedFile('v.npy', short, 5), ids)).message).toBe(`v.npy: truncated: 5 × 6 values need ${need} bytes, the file has ${need - 3}`);
    }
    // What follows the values is not read: the stream is left there (a file is never read whole first).
    const values = npyVectors(VECTORS);
    const trailing = new Uint8Array(values.length + 64 * 100);
    trailing.set(values);
    let pulled = 0;
    const counted = chunkedFile('v.npy', trailing, 64, () => (pulled += 1));
    expect((await readVectorFile({ file: counted, ids })).vectors.data).toEqual((await readVectorFile({ file: memoryFile('v.npy', values), ids })).vectors.data);
    expect(pulled).toBe(Math.ceil(values.length / 64));
    expect((await failure(memoryFile('v.npy', npyVectors(VECTORS).subarray(0, 40)), ids)).message).toMatch(/^v\.npy: unreadable \.npy header/);
    expect((await failure(memoryFile('v.npy', new TextEncoder().encode('{"id": 1}')), ids)).message).toBe('v.npy: not a .npy file (no \\x93NUMPY magic)');
  });

  it('reports the share of each file read, ending at 1 (bytes; rows of Parquet row groups)', async () => {
    const ids = memoryFile('ids.txt', IDS.join('\n'));
    for (const [file, extra] of [
      [memoryFile('a.jsonl', pyseriniJsonl(IDS, VECTORS)), {}],
      [memoryFile('b.parquet', parquetVectors(IDS, VECTORS, 2)), {}],
      [memoryFile('c.npy', npyVectors(VECTORS)), { ids }],
    ] as const) {
      const shares: number[] = [];
      await readVectorFile({ file, ...extra, onShare: (share) => shares.push(share) });
      expect(shares.at(-1)).toBe(1);
      shares.forEach((share, i) => expect(share).toBeGreaterThanOrEqual(shares[i - 1] ?? 0));
    }
  });

  it('gives the same fingerprint for the same ids and values in any format, another for other values', async () => {
    const ids = memoryFile('ids.txt', IDS.join('\n'));
    const a = await readVectorFile({ file: memoryFile('a.jsonl', pyseriniJsonl(IDS, VECTORS)) });
    const b = await readVectorFile({ file: memoryFile('b.parquet', parquetVectors(IDS, VECTORS)) });
    const c = await readVectorFile({ file: memoryFile('c.npy', npyVectors(VECTORS)), ids });
    const other = await readVectorFile({ file: memoryFile('a.jsonl', pyseriniJsonl(IDS, randomVectors(IDS.length, 6, 8))) });
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(c.fingerprint).toBe(a.fingerprint);
    expect(other.fingerprint).not.toBe(a.fingerprint);
  });

  it('names the line of a vector of another dimension', async () => {
    const lines = pyseriniJsonl(IDS, [...VECTORS.slice(0, 3), VECTORS[3]!.slice(0, 5), VECTORS[4]!]);
    const error = await failure(memoryFile('embeddings.jsonl', lines));
    expect(error.message).toBe('embeddings.jsonl:4: the vector of "d4" has 5 dimensions, the lines before it 6');
  });

  it('names the line of NaN or Infinity (as Python writes them) and of malformed JSON', async () => {
    const good = pyseriniJsonl(IDS.slice(0, 2), VECTORS.slice(0, 2));
    const nan = `${good}{"id": "d3", "contents": "", "vector": [0.1, NaN, 0.3, 0.1, 0.1, 0.1]}\n`;
    expect((await failure(memoryFile('e.jsonl', nan))).message).toBe('e.jsonl:3: the vector holds NaN or Infinity');
    const inf = `${good}{"id": "d3", "vector": [0.1, -Infinity, 0.3, 0.1, 0.1, 0.1]}\n`;
    expect((await failure(memoryFile('e.jsonl', inf))).message).toBe('e.jsonl:3: the vector holds NaN or Infinity');
    const broken = `${good}{"id": "d3", "vector": [0.1, 0.2\n`;
    const error = await failure(memoryFile('e.jsonl', broken));
    expect(error.line).toBe(3);
    expect(error.kind).toBe('invalid-json');
  });

  it('names the row of a non-finite value in Parquet and .npy', async () => {
    const bad = VECTORS.map((v, r) => (r === 3 ? v.map((x, i) => (i === 2 ? Number.NaN : x)) : v));
    expect((await failure(memoryFile('v.parquet', parquetVectors(IDS, bad)))).message).toBe('v.parquet:4: the vector of "d4" holds NaN (component 3)');
    const ids = memoryFile('ids.txt', IDS.join('\n'));
    expect((await failure(memoryFile('v.npy', npyVectors(bad)), ids)).message).toBe('v.npy:4: the vector of "d4" holds NaN (component 3)');
  });

  it('refuses a duplicate id, a missing vector field and an empty file', async () => {
    const twice = pyseriniJsonl(['d1', 'd2', 'd1'], VECTORS.slice(0, 3));
    expect((await failure(memoryFile('e.jsonl', twice))).message).toBe('e.jsonl:3: "d1" was already given a vector at line 1');
    expect((await failure(memoryFile('e.jsonl', '{"id": "d1", "contents": "x"}\n'))).message).toBe('e.jsonl:1: "vector" is missing');
    expect((await failure(memoryFile('e.jsonl', '\n'))).kind).toBe('empty-file');
  });

  it('refuses an unsupported dtype, Fortran order, a 1-D array and an ids file of another length', async () => {
    const ids = memoryFile('ids.txt', IDS.join('\n'));
    const int32 = npyVectors(VECTORS);
    int32.set(new TextEncoder().encode('<i4'), new TextDecoder().decode(int32.subarray(0, 80)).indexOf('<f4'));
    expect((await failure(memoryFile('v.npy', int32), ids)).message).toBe('v.npy: unsupported dtype <i4 (float16, float32 or float64, little-endian)');
    const fortran = npyVectors(VECTORS);
    const header = new TextDecoder().decode(fortran.subarray(10, 80));
    fortran.set(new TextEncoder().encode(header.replace("'fortran_order': False", "'fortran_order': True ")), 10);
    expect((await failure(memoryFile('v.npy', fortran), ids)).message).toMatch(/^v\.npy: Fortran order is not supported/);
    expect((await failure(memoryFile('v.npy', npyVectors(VECTORS, '<f4', [30])), ids)).message).toBe('v.npy: shape (30): expected 2 dimensions (rows, dimension)');
    const short = memoryFile('ids.txt', IDS.slice(0, 4).join('\n'));
    expect((await failure(memoryFile('v.npy', npyVectors(VECTORS)), short)).message).toBe('ids.txt: 4 ids for the 5 rows of v.npy');
    expect((await failure(memoryFile('v.npy', npyVectors(VECTORS)))).message).toMatch(/^v\.npy: a \.npy file needs an ids file/);
  });

  it('refuses a Parquet file without an id or an embedding column (naming the columns it has) and one that is not Parquet', async () => {
    const other = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'doc', data: ['a'] }, { name: 'text', data: ['b'] }] }));
    expect((await failure(memoryFile('v.parquet', other))).message).toMatch(/^v\.parquet: needs an id column .*; found doc, text$/);
    expect((await failure(memoryFile('w.parquet', 'not parquet'))).message).toMatch(/^w\.parquet: not a readable parquet file/);
  });
});

import { ParseError } from '../data/errors.ts';
import { Fingerprint } from '../data/fingerprint.ts';
import { parseJsonObject } from '../data/jsonl-record.ts';
import { byteChunks, readLines, type ByteSource } from '../data/lines.ts';
import type { VectorMatrix } from '../dense/vector-matrix.ts';
import { countingSource, memoryRandomAccess, readAll, type RandomAccess } from './import-file.ts';

/**
 * Vectors made elsewhere (a GPU machine, a cluster), read in plain TypeScript for the page, its workers and
 * the CLI alike, in three formats:
 * - JSON lines as Pyserini's `python -m pyserini.encode` writes them (`embeddings.jsonl`:
 *   `{"id", "contents", "vector": [...]}`; `docid` or `_id` for the id also do);
 * - Parquet with an id column and an embedding column (a list of floats, as the hub's datasets of
 *   embeddings ship them), read with hyparquet;
 * - NumPy `.npy` (float16/32/64, C order, 2-D) with an ids file of one id per line, in row order.
 * Every problem is a `ParseError` naming the file and the line (JSON lines, the ids file) or row (Parquet,
 * .npy); nothing is returned from a bad file. The fingerprint of the file's ids and values names what was read.
 */

export type VectorFileFormat = 'jsonl' | 'parquet' | 'npy';

/** A file to read: its name (for messages) and its bytes. */
export interface VectorFileInput {
  name: string;
  /** Bytes, when known: progress is then reported as a share of the file. */
  size?: number;
  open(): Promise<ByteSource>;
  /** Random access (Parquet reads its footer first); without it the file is read whole. */
  random?(): Promise<RandomAccess>;
}

export interface VectorFileRequest {
  file: VectorFileInput;
  /** Default: by the file name's extension (`.jsonl`/`.json`[`.gz`], `.parquet`, `.npy`). */
  format?: VectorFileFormat;
  /** `.npy` only: the ids, one per line, row by row. */
  ids?: VectorFileInput;
  signal?: AbortSignal;
  /** Rows read so far. */
  onRows?: (rows: number) => void;
  /** The share of the file read so far, 0 … 1 (bytes, or Parquet's rows; without a known size, nothing). */
  onShare?: (share: number) => void;
}

/** What a vector file holds: row r is the vector of ids[r]. */
export interface VectorRows {
  file: string;
  ids: string[];
  vectors: VectorMatrix;
  /** FNV-1a of the ids and the values' bits, in row order (8 hex digits). */
  fingerprint: string;
}

/** A Blob (a picked File) as a vector file. */
export function blobVectorInput(blob: Blob, name: string): VectorFileInput {
  return {
    name,
    size: blob.size,
    open: async () => blob.stream() as ReadableStream<Uint8Array>,
    random: async () => ({ byteLength: blob.size, slice: (start, end) => blob.slice(start, end).arrayBuffer() }),
  };
}

/** The format a file name says, or undefined. */
export function vectorFileFormat(name: string): VectorFileFormat | undefined {
  const lower = name.toLowerCase().replace(/\.gz$/, '');
  if (lower.endsWith('.jsonl') || lower.endsWith('.json')) return 'jsonl';
  if (lower.endsWith('.parquet')) return 'parquet';
  if (lower.endsWith('.npy')) return 'npy';
  return undefined;
}

/** Rows of one width, growing as they come; the first row fixes the width. */
class RowCollector {
  readonly ids: string[] = [];
  private readonly seen = new Map<string, number>();
  private data = new Float32Array(0);
  dim = 0;

  constructor(private readonly file: string) {}

  add(id: string, values: ArrayLike<unknown>, where: number, unit: 'line' | 'row'): void {
    if (values.length === 0) throw new ParseError(this.file, where, 'invalid-field', `the vector of "${id}" is empty`);
    if (this.dim === 0) this.dim = values.length;
    else if (values.length !== this.dim) {
      throw new ParseError(this.file, where, 'invalid-field', `the vector of "${id}" has ${values.length} dimensions, the ${unit}s before it ${this.dim}`);
    }
    const first = this.seen.get(id);
    if (first !== undefined) throw new ParseError(this.file, where, 'duplicate-id', `"${id}" was already given a vector at ${unit} ${first}`);
    this.seen.set(id, where);
    const row = this.ids.length;
    if ((row + 1) * this.dim > this.data.length) {
      const grown = new Float32Array(Math.max(1024, this.data.length * 2, (row + 1) * this.dim));
      grown.set(this.data);
      this.data = grown;
    }
    const base = row * this.dim;
    for (let i = 0; i < this.dim; i++) {
      const value = values[i];
      if (typeof value !== 'number') throw new ParseError(this.file, where, 'invalid-number', `component ${i + 1} of the vector of "${id}" is not a number`);
      if (!Number.isFinite(value)) throw new ParseError(this.file, where, 'invalid-number', `the vector of "${id}" holds ${String(value)} (component ${i + 1})`);
      this.data[base + i] = value;
    }
    this.ids.push(id);
  }

  finish(): VectorRows {
    if (this.ids.length === 0) throw new ParseError(this.file, 0, 'empty-file', 'no vectors in this file');
    const data = this.data.slice(0, this.ids.length * this.dim);
    return { file: this.file, ids: this.ids, vectors: { rows: this.ids.length, dim: this.dim, data }, fingerprint: fingerprintRows(this.ids, data) };
  }
}

/** FNV-1a over the ids and the float32 bits of the values (8,192 16-bit units at a time). */
function fingerprintRows(ids: readonly string[], data: Float32Array): string {
  const fingerprint = new Fingerprint();
  for (const id of ids) fingerprint.add(id);
  const units = new Uint16Array(data.buffer, data.byteOffset, data.length * 2);
  for (let start = 0; start < units.length; start += 8192) fingerprint.addUnits(units.subarray(start, start + 8192));
  return fingerprint.hex();
}

/** Byte counts as a share of the input's size, for `onShare`; undefined when either is unknown. */
function byteShare(input: VectorFileInput, onShare: ((share: number) => void) | undefined): ((bytes: number) => void) | undefined {
  const { size } = input;
  if (onShare === undefined || size === undefined || size === 0) return undefined;
  return (bytes) => onShare(Math.min(1, bytes / size));
}

const ID_FIELDS = ['id', 'docid', '_id'] as const;
const VECTOR_FIELDS = ['vector', 'embedding', 'emb'] as const;

/** Python's json.dumps writes NaN and Infinity as bare words, which JSON does not have. */
const NON_FINITE_WORD = /(?:^|[[,:\s])-?(?:NaN|Infinity)(?=[\s,\]}])/;

async function readJsonLines(request: VectorFileRequest): Promise<VectorRows> {
  const file = request.file.name;
  const rows = new RowCollector(file);
  const onBytes = byteShare(request.file, request.onShare);
  const lines = readLines(await request.file.open(), { file, ...(request.signal === undefined ? {} : { signal: request.signal }), ...(onBytes === undefined ? {} : { onBytes }) });
  for await (const line of lines) {
    if (line.text.trim() === '') continue;
    let record: Record<string, unknown>;
    try {
      record = parseJsonObject(line.text, file, line.number);
    } catch (error) {
      if (NON_FINITE_WORD.test(line.text)) throw new ParseError(file, line.number, 'invalid-number', 'the vector holds NaN or Infinity', { cause: error });
      throw error;
    }
    const idField = ID_FIELDS.find((field) => field in record);
    if (idField === undefined) throw new ParseError(file, line.number, 'missing-field', '"id" is missing (Pyserini writes "id"; "docid" and "_id" also do)');
    const id = record[idField];
    if (typeof id !== 'string' || id === '') throw new ParseError(file, line.number, 'invalid-field', `"${idField}" must be a non-empty string`);
    const vectorField = VECTOR_FIELDS.find((field) => field in record);
    if (vectorField === undefined) throw new ParseError(file, line.number, 'missing-field', '"vector" is missing');
    const vector = record[vectorField];
    if (!Array.isArray(vector)) throw new ParseError(file, line.number, 'invalid-field', `"${vectorField}" must be an array of numbers`);
    rows.add(id, vector, line.number, 'line');
    if (rows.ids.length % 4096 === 0) request.onRows?.(rows.ids.length);
  }
  request.onRows?.(rows.ids.length);
  return rows.finish();
}

const PARQUET_ID_COLUMNS = ['id', '_id', 'docid', 'doc_id', 'corpus-id', 'query-id', 'query_id', 'qid', 'pid'];
const PARQUET_VECTOR_COLUMNS = ['embedding', 'embeddings', 'emb', 'vector', 'vectors'];

async function parquetAccess(input: VectorFileInput, signal: AbortSignal | undefined): Promise<RandomAccess> {
  if (input.random !== undefined) return input.random();
  return memoryRandomAccess(await readAll(await input.open(), signal === undefined ? {} : { signal }));
}

/** The id of a Parquet cell: strings as they are, integers as their digits. */
function parquetId(value: unknown, file: string, row: number, column: string): string {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) return String(value);
  throw new ParseError(file, row, 'invalid-field', `"${column}" must be a string or an integer`);
}

async function readParquet(request: VectorFileRequest): Promise<VectorRows> {
  // Loaded for Parquet files only: hyparquet's codecs (an inflater among them) would load with every import worker.
  const [{ parquetReadObjects, parquetSchema }, { compressors }, { metadataOf }] = await Promise.all([import('hyparquet'), import('hyparquet-compressors'), import('./parquet.ts')]);
  const file = request.file.name;
  const access = await parquetAccess(request.file, request.signal);
  const metadata = await metadataOf(access, file);
  const columns = parquetSchema(metadata).children.map((child) => child.element.name);
  const idColumn = PARQUET_ID_COLUMNS.find((name) => columns.includes(name));
  const vectorColumn = PARQUET_VECTOR_COLUMNS.find((name) => columns.includes(name));
  if (idColumn === undefined || vectorColumn === undefined) {
    throw new ParseError(file, 0, 'invalid-columns', `needs an id column (${PARQUET_ID_COLUMNS.join(', ')}) and an embedding column (${PARQUET_VECTOR_COLUMNS.join(', ')}); found ${columns.join(', ')}`);
  }
  const rows = new RowCollector(file);
  const totalRows = Number(metadata.num_rows);
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    request.signal?.throwIfAborted();
    const rowEnd = rowStart + Number(group.num_rows);
    let records: Array<Record<string, unknown>>;
    try {
      records = await parquetReadObjects({ file: access, metadata, rowStart, rowEnd, columns: [idColumn, vectorColumn], compressors });
    } catch (error) {
      throw new ParseError(file, rowStart + 1, 'io', `could not read rows ${rowStart + 1}–${rowEnd} (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    records.forEach((record, i) => {
      const row = rowStart + i + 1;
      const id = parquetId(record[idColumn], file, row, idColumn);
      const vector = record[vectorColumn];
      const values = Array.isArray(vector) || ArrayBuffer.isView(vector) ? (vector as ArrayLike<unknown>) : undefined;
      if (values === undefined) throw new ParseError(file, row, 'invalid-field', `"${vectorColumn}" must be a list of floats`);
      rows.add(id, values, row, 'row');
    });
    rowStart = rowEnd;
    request.onRows?.(rows.ids.length);
    if (totalRows > 0) request.onShare?.(rowEnd / totalRows);
  }
  return rows.finish();
}

const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];

interface NpyHeader {
  descr: string;
  fortran: boolean;
  shape: number[];
}

/** The header's dictionary (`{'descr': '<f4', 'fortran_order': False, 'shape': (5, 6), }`). */
function npyHeader(text: string, file: string): NpyHeader {
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(text)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(text)?.[1];
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(text)?.[1];
  if (descr === undefined || fortran === undefined || shape === undefined) throw new ParseError(file, 0, 'io', `unreadable .npy header: ${text.trim()}`);
  const dims = shape.split(',').map((part) => part.trim()).filter((part) => part !== '').map(Number);
  return { descr, fortran: fortran === 'True', shape: dims };
}

/** IEEE half bits → number. */
function fromHalf(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant === 0 ? sign * Infinity : Number.NaN;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

interface NpyType {
  bytes: number;
  read: (view: DataView, offset: number) => number;
}

const NPY_TYPES: Record<string, NpyType> = {
  '<f4': { bytes: 4, read: (view, offset) => view.getFloat32(offset, true) },
  '<f8': { bytes: 8, read: (view, offset) => view.getFloat64(offset, true) },
  '<f2': { bytes: 2, read: (view, offset) => fromHalf(view.getUint16(offset, true)) },
};

async function readIdLines(input: VectorFileInput, signal: AbortSignal | undefined): Promise<string[]> {
  const ids: string[] = [];
  const seen = new Map<string, number>();
  for await (const line of readLines(await input.open(), { file: input.name, ...(signal === undefined ? {} : { signal }) })) {
    const id = line.text.trim();
    if (id === '') throw new ParseError(input.name, line.number, 'missing-field', 'a blank line (one id per line, one line per row of the .npy)');
    const first = seen.get(id);
    if (first !== undefined) throw new ParseError(input.name, line.number, 'duplicate-id', `"${id}" is already on line ${first}`);
    seen.set(id, line.number);
    ids.push(id);
  }
  return ids;
}

/** The bytes of a .npy file before its data (magic, version, header length, header), read from its first chunks. */
async function npyPrefix(chunks: AsyncIterator<Uint8Array>, file: string): Promise<{ header: NpyHeader; rest: Uint8Array }> {
  let bytes = new Uint8Array(0);
  const grow = async (length: number) => {
    while (bytes.length < length) {
      const next = await chunks.next();
      if (next.done === true) return;
      const joined = new Uint8Array(bytes.length + next.value.length);
      joined.set(bytes);
      joined.set(next.value, bytes.length);
      bytes = joined;
    }
  };
  await grow(12);
  if (bytes.length < 10 || NPY_MAGIC.some((byte, i) => bytes[i] !== byte)) throw new ParseError(file, 0, 'io', 'not a .npy file (no \\x93NUMPY magic)');
  // Version 1 gives the header's length in 2 bytes, later versions in 4.
  const start = bytes[6] === 1 ? 10 : 12;
  if (bytes.length < start) throw new ParseError(file, 0, 'io', 'unreadable .npy header: the file ends in it');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dataOffset = start + (start === 10 ? view.getUint16(8, true) : view.getUint32(8, true));
  await grow(dataOffset);
  const header = npyHeader(new TextDecoder().decode(bytes.subarray(start, dataOffset)), file);
  return { header, rest: bytes.subarray(Math.min(dataOffset, bytes.length)) };
}

/**
 * Little-endian values of `type` streamed into `data` as float32, across chunk boundaries; answers the bytes
 * taken (the data's bytes at most: what follows them is ignored, as NumPy does).
 */
async function npyValues(first: Uint8Array, chunks: AsyncIterator<Uint8Array>, type: NpyType, data: Float32Array, signal: AbortSignal | undefined): Promise<number> {
  const needed = data.length * type.bytes;
  // float32 is copied as stored; other widths are read a value at a time, a value split by a chunk's end carried over.
  const raw = type.bytes === 4 ? new Uint8Array(data.buffer) : undefined;
  let taken = 0;
  let carry = new Uint8Array(0);
  const take = (chunk: Uint8Array) => {
    const part = chunk.subarray(0, needed - taken);
    if (raw !== undefined) raw.set(part, taken);
    else {
      let bytes = part;
      if (carry.length > 0) {
        bytes = new Uint8Array(carry.length + part.length);
        bytes.set(carry);
        bytes.set(part, carry.length);
      }
      const first = (taken - carry.length) / type.bytes;
      const count = Math.floor(bytes.length / type.bytes);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let i = 0; i < count; i++) data[first + i] = type.read(view, i * type.bytes);
      carry = bytes.slice(count * type.bytes);
    }
    taken += part.length;
  };
  take(first);
  while (taken < needed) {
    signal?.throwIfAborted();
    const next = await chunks.next();
    if (next.done === true) break;
    take(next.value);
  }
  return taken;
}

/** A .npy file streamed: only the float32 values are held, never the file's bytes whole. */
async function readNpy(request: VectorFileRequest): Promise<VectorRows> {
  const file = request.file.name;
  if (request.ids === undefined) throw new ParseError(file, 0, 'missing-field', 'a .npy file needs an ids file (one id per line, in row order)');
  const onBytes = byteShare(request.file, request.onShare);
  const source = await request.file.open();
  const chunks = (onBytes === undefined ? byteChunks(source) : countingSource(source, onBytes))[Symbol.asyncIterator]();
  try {
    const { header, rest } = await npyPrefix(chunks, file);
    const type = NPY_TYPES[header.descr.replace(/^=/, '<')];
    if (type === undefined) throw new ParseError(file, 0, 'invalid-field', `unsupported dtype ${header.descr} (float16, float32 or float64, little-endian)`);
    if (header.fortran) throw new ParseError(file, 0, 'invalid-field', 'Fortran order is not supported (save it with np.ascontiguousarray)');
    if (header.shape.length !== 2) throw new ParseError(file, 0, 'invalid-field', `shape (${header.shape.join(', ')}): expected 2 dimensions (rows, dimension)`);
    const [rowCount, dim] = header.shape as [number, number];
    const ids = await readIdLines(request.ids, request.signal);
    if (ids.length !== rowCount) throw new ParseError(request.ids.name, 0, 'invalid-field', `${ids.length} ids for the ${rowCount} rows of ${file}`);
    if (rowCount === 0 || dim === 0) throw new ParseError(file, 0, 'empty-file', `no vectors in this file (shape ${rowCount} × ${dim})`);
    const data = new Float32Array(rowCount * dim);
    const taken = await npyValues(rest, chunks, type, data, request.signal);
    if (taken < data.length * type.bytes) {
      throw new ParseError(file, 0, 'io', `truncated: ${rowCount} × ${dim} values need ${data.length * type.bytes} bytes, the file has ${taken}`);
    }
    for (let i = 0; i < data.length; i++) {
      const value = data[i]!;
      if (!Number.isFinite(value)) {
        const row = Math.floor(i / dim);
        throw new ParseError(file, row + 1, 'invalid-number', `the vector of "${ids[row]!}" holds ${String(value)} (component ${(i % dim) + 1})`);
      }
    }
    request.onRows?.(rowCount);
    return { file, ids, vectors: { rows: rowCount, dim, data }, fingerprint: fingerprintRows(ids, data) };
  } finally {
    await chunks.return?.(undefined);
  }
}

/** Reads a vector file whole; throws a `ParseError` for anything it cannot take. */
export async function readVectorFile(request: VectorFileRequest): Promise<VectorRows> {
  const format = request.format ?? vectorFileFormat(request.file.name);
  switch (format) {
    case 'jsonl':
      return readJsonLines(request);
    case 'parquet':
      return readParquet(request);
    case 'npy':
      return readNpy(request);
    case undefined:
      throw new ParseError(request.file.name, 0, 'io', 'not a vector file: expected .jsonl (Pyserini), .parquet or .npy');
  }
}

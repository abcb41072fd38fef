/**
 * A tiny parquet writer for test fixtures (NanoBEIR-style files), because `hyparquet-writer` is not
 * installed. It writes what the format requires and nothing more (Apache Parquet format spec, parquet.thrift):
 * `PAR1`, per row group one column chunk per column made of one DATA_PAGE (v1) with PLAIN-encoded values,
 * no compression, REQUIRED columns only (so no definition or repetition levels), then the FileMetaData
 * footer in Thrift's compact protocol, its length and `PAR1`. Column types: UTF-8 strings (BYTE_ARRAY +
 * UTF8) and 64-bit integers (INT64, read back as bigint).
 */

type Value = string | bigint;

/** Appends without spreading (a spread of a large array overflows the call stack). */
function append(target: number[], values: ArrayLike<number>): void {
  for (let i = 0; i < values.length; i++) target.push(values[i]!);
}

export interface ParquetColumn {
  name: string;
  type: 'string' | 'int64';
  values: Value[];
}

// Thrift compact protocol (THRIFT-110): field headers carry the id delta and the type in one byte.
const T = { I32: 5, I64: 6, BINARY: 8, LIST: 9, STRUCT: 12 } as const;

class CompactWriter {
  bytes: number[] = [];
  private lastIds: number[] = [0];

  private varint(value: bigint): void {
    let v = value;
    while (v >= 0x80n) {
      this.bytes.push(Number((v & 0x7fn) | 0x80n));
      v >>= 7n;
    }
    this.bytes.push(Number(v));
  }

  private zigzag(value: bigint): void {
    this.varint(value >= 0n ? value << 1n : ((-value) << 1n) - 1n);
  }

  private header(id: number, type: number): void {
    const last = this.lastIds[this.lastIds.length - 1]!;
    const delta = id - last;
    if (delta > 0 && delta <= 15) this.bytes.push((delta << 4) | type);
    else {
      this.bytes.push(type);
      this.zigzag(BigInt(id));
    }
    this.lastIds[this.lastIds.length - 1] = id;
  }

  i32(id: number, value: number): void {
    this.header(id, T.I32);
    this.zigzag(BigInt(value));
  }

  i64(id: number, value: number | bigint): void {
    this.header(id, T.I64);
    this.zigzag(BigInt(value));
  }

  string(id: number, value: string): void {
    this.header(id, T.BINARY);
    const encoded = new TextEncoder().encode(value);
    this.varint(BigInt(encoded.length));
    append(this.bytes, encoded);
  }

  struct(id: number, body: () => void): void {
    this.header(id, T.STRUCT);
    this.structBody(body);
  }

  private structBody(body: () => void): void {
    this.lastIds.push(0);
    body();
    this.bytes.push(0); // STOP
    this.lastIds.pop();
  }

  private listHeader(id: number, size: number, elementType: number): void {
    this.header(id, T.LIST);
    if (size < 15) this.bytes.push((size << 4) | elementType);
    else {
      this.bytes.push(0xf0 | elementType);
      this.varint(BigInt(size));
    }
  }

  listI32(id: number, values: number[]): void {
    this.listHeader(id, values.length, T.I32);
    for (const value of values) this.zigzag(BigInt(value));
  }

  listString(id: number, values: string[]): void {
    this.listHeader(id, values.length, T.BINARY);
    for (const value of values) {
      const encoded = new TextEncoder().encode(value);
      this.varint(BigInt(encoded.length));
      append(this.bytes, encoded);
    }
  }

  listStruct(id: number, count: number, body: (index: number) => void): void {
    this.listHeader(id, count, T.STRUCT);
    for (let i = 0; i < count; i++) this.structBody(() => body(i));
  }
}

const PHYSICAL = { int64: 2, string: 6 } as const; // INT64, BYTE_ARRAY
const UTF8 = 0; // ConvertedType.UTF8
const REQUIRED = 0;
const PLAIN = 0;
const RLE = 3;
const UNCOMPRESSED = 0;

function plainValues(column: ParquetColumn, start: number, end: number): number[] {
  const out: number[] = [];
  for (const value of column.values.slice(start, end)) {
    if (column.type === 'string') {
      const encoded = new TextEncoder().encode(value as string);
      const length = encoded.length;
      out.push(length & 0xff, (length >> 8) & 0xff, (length >> 16) & 0xff, (length >>> 24) & 0xff);
      append(out, encoded);
    } else {
      const view = new DataView(new ArrayBuffer(8));
      view.setBigInt64(0, value as bigint, true);
      append(out, new Uint8Array(view.buffer));
    }
  }
  return out;
}

/** A parquet file holding `columns` (all the same length), `rowGroupSize` rows per row group. */
export function writeParquet(columns: ParquetColumn[], rowGroupSize = 1000): Uint8Array {
  const rows = columns[0]?.values.length ?? 0;
  const out: number[] = [...new TextEncoder().encode('PAR1')];
  const groups: Array<{ rows: number; chunks: Array<{ offset: number; size: number; values: number }> }> = [];
  for (let start = 0; start < rows || (rows === 0 && groups.length === 0); start += rowGroupSize) {
    const end = Math.min(rows, start + rowGroupSize);
    const chunks = columns.map((column) => {
      const data = plainValues(column, start, end);
      const header = new CompactWriter();
      header.i32(1, 0); // DATA_PAGE
      header.i32(2, data.length);
      header.i32(3, data.length);
      header.struct(5, () => {
        header.i32(1, end - start);
        header.i32(2, PLAIN);
        header.i32(3, RLE);
        header.i32(4, RLE);
      });
      header.bytes.push(0); // end of PageHeader
      const offset = out.length;
      append(out, header.bytes);
      append(out, data);
      return { offset, size: header.bytes.length + data.length, values: end - start };
    });
    groups.push({ rows: end - start, chunks });
    if (rows === 0) break;
  }
  const meta = new CompactWriter();
  meta.i32(1, 1);
  meta.listStruct(2, columns.length + 1, (index) => {
    if (index === 0) {
      meta.string(4, 'schema');
      meta.i32(5, columns.length);
      return;
    }
    const column = columns[index - 1]!;
    meta.i32(1, PHYSICAL[column.type]);
    meta.i32(3, REQUIRED);
    meta.string(4, column.name);
    if (column.type === 'string') meta.i32(6, UTF8);
  });
  meta.i64(3, rows);
  meta.listStruct(4, groups.length, (g) => {
    const group = groups[g]!;
    meta.listStruct(1, columns.length, (c) => {
      const chunk = group.chunks[c]!;
      const column = columns[c]!;
      meta.i64(2, chunk.offset);
      meta.struct(3, () => {
        meta.i32(1, PHYSICAL[column.type]);
        meta.listI32(2, [PLAIN, RLE]);
        meta.listString(3, [column.name]);
        meta.i32(4, UNCOMPRESSED);
        meta.i64(5, chunk.values);
        meta.i64(6, chunk.size);
        meta.i64(7, chunk.size);
        meta.i64(9, chunk.offset);
      });
    });
    meta.i64(2, group.chunks.reduce((sum, chunk) => sum + chunk.size, 0));
    meta.i64(3, group.rows);
  });
  meta.string(6, 'retrieval-playground test writer');
  meta.bytes.push(0);
  const length = meta.bytes.length;
  append(out, meta.bytes);
  out.push(length & 0xff, (length >> 8) & 0xff, (length >> 16) & 0xff, (length >>> 24) & 0xff, ...new TextEncoder().encode('PAR1'));
  return new Uint8Array(out);
}

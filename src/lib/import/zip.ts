import { ParseError } from '../data/errors.ts';
import { crc32 } from '../data/gzip.ts';
import { byteChunks } from '../data/lines.ts';

/**
 * Reading a .zip (PKWARE APPNOTE 6.3.x) from a Blob without loading it: the central directory is read from
 * the end of the file, and each entry is streamed from its own byte range, inflated chunk by chunk (fflate)
 * and checked against its CRC-32 and size. Entries can thus be read in any order (a BEIR zip may list qrels
 * before the corpus). Stored (0) and deflated (8) entries, and zip64 archives, are supported; encrypted
 * entries are not.
 */

export interface ZipEntry {
  /** Path inside the archive, `/`-separated. */
  name: string;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  directory: boolean;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

async function bytesAt(blob: Blob, start: number, end: number): Promise<DataView> {
  return new DataView(await blob.slice(start, end).arrayBuffer());
}

function u64(view: DataView, at: number): number {
  return Number(view.getBigUint64(at, true));
}

interface Directory {
  offset: number;
  size: number;
  entries: number;
}

async function findDirectory(blob: Blob, zipName: string): Promise<Directory> {
  const tailStart = Math.max(0, blob.size - EOCD_SIZE - MAX_COMMENT);
  const tail = await bytesAt(blob, tailStart, blob.size);
  for (let at = tail.byteLength - EOCD_SIZE; at >= 0; at--) {
    if (tail.getUint32(at, true) !== EOCD_SIGNATURE) continue;
    let directory: Directory = { entries: tail.getUint16(at + 10, true), size: tail.getUint32(at + 12, true), offset: tail.getUint32(at + 16, true) };
    const zip64 = directory.entries === 0xffff || directory.size === 0xffffffff || directory.offset === 0xffffffff;
    if (zip64 && at >= 20 && tail.getUint32(at - 20, true) === ZIP64_LOCATOR_SIGNATURE) {
      const recordOffset = u64(tail, at - 20 + 8);
      const record = await bytesAt(blob, recordOffset, recordOffset + 56);
      if (record.getUint32(0, true) !== ZIP64_EOCD_SIGNATURE) throw new ParseError(zipName, 0, 'io', 'damaged zip64 directory');
      directory = { entries: u64(record, 32), size: u64(record, 40), offset: u64(record, 48) };
    }
    if (directory.offset + directory.size > blob.size) throw new ParseError(zipName, 0, 'io', 'the zip file is truncated (its directory points past the end)');
    return directory;
  }
  throw new ParseError(zipName, 0, 'io', 'not a zip file (no end-of-central-directory record)');
}

const utf8 = new TextDecoder('utf-8');

/** Zip64 extended information (header id 0x0001) replaces the 32-bit fields that are 0xFFFFFFFF. */
function applyZip64Extra(entry: ZipEntry, view: DataView, start: number, length: number): void {
  let at = start;
  while (at + 4 <= start + length) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      if (entry.size === 0xffffffff) {
        entry.size = u64(view, field);
        field += 8;
      }
      if (entry.compressedSize === 0xffffffff) {
        entry.compressedSize = u64(view, field);
        field += 8;
      }
      if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = u64(view, field);
      return;
    }
    at += 4 + size;
  }
}

/** The archive's entries, as listed in its central directory. */
export async function readZipDirectory(blob: Blob, zipName: string): Promise<ZipEntry[]> {
  const directory = await findDirectory(blob, zipName);
  const view = await bytesAt(blob, directory.offset, directory.offset + directory.size);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < directory.entries; i++) {
    if (at + 46 > view.byteLength || view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
      throw new ParseError(zipName, 0, 'io', `damaged zip directory (entry ${i + 1} of ${directory.entries})`);
    }
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const name = utf8.decode(new Uint8Array(view.buffer, view.byteOffset + at + 46, nameLength)).replace(/\\/g, '/');
    const entry: ZipEntry = {
      name,
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      crc32: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
      directory: name.endsWith('/'),
    };
    applyZip64Extra(entry, view, at + 46 + nameLength, extraLength);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The entry's decompressed bytes, streamed; throws `ParseError` (file `<zip>/<entry>`) for unsupported or
 * damaged entries, including a CRC-32 or size mismatch at the end.
 */
export async function* zipEntryBytes(blob: Blob, entry: ZipEntry, zipName: string): AsyncGenerator<Uint8Array> {
  const file = `${zipName}/${entry.name}`;
  if (entry.flags & 0x1) throw new ParseError(file, 0, 'io', 'the zip entry is encrypted');
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ParseError(file, 0, 'io', `zip compression method ${entry.method} is not supported (only stored and deflate)`);
  }
  const header = await bytesAt(blob, entry.localHeaderOffset, entry.localHeaderOffset + 30);
  if (header.byteLength < 30 || header.getUint32(0, true) !== LOCAL_SIGNATURE) throw new ParseError(file, 0, 'io', 'damaged zip entry (no local header)');
  const dataStart = entry.localHeaderOffset + 30 + header.getUint16(26, true) + header.getUint16(28, true);
  const data = blob.slice(dataStart, dataStart + entry.compressedSize);
  if (data.size < entry.compressedSize) throw new ParseError(file, 0, 'io', 'the zip entry is truncated');

  let crc = 0;
  let size = 0;
  const out: Uint8Array[] = [];
  // fflate loads when a deflated entry is met (as in src/lib/data/gzip.ts), not with the import worker.
  const inflater = entry.method === 8 ? new (await import('fflate')).Inflate((chunk) => out.push(chunk)) : undefined;
  const take = (chunk: Uint8Array) => {
    crc = crc32(crc, chunk);
    size += chunk.length;
  };
  for await (const chunk of byteChunks(data.stream() as ReadableStream<Uint8Array>)) {
    if (inflater === undefined) {
      take(chunk);
      yield chunk;
      continue;
    }
    try {
      inflater.push(chunk, false);
    } catch (error) {
      throw new ParseError(file, 0, 'io', `damaged zip entry (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    for (const piece of out.splice(0)) {
      take(piece);
      yield piece;
    }
  }
  if (inflater !== undefined) {
    try {
      inflater.push(new Uint8Array(0), true);
    } catch (error) {
      throw new ParseError(file, 0, 'io', `damaged zip entry (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    for (const piece of out.splice(0)) {
      take(piece);
      yield piece;
    }
  }
  if (size !== entry.size || crc !== entry.crc32) throw new ParseError(file, 0, 'io', 'the zip entry is damaged (size or checksum mismatch)');
}

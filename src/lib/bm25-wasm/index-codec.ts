import { termOrderOf, type Bm25IndexParts } from './index-parts.ts';

/**
 * The stored form of a BM25 index: one ArrayBuffer (what `IndexRow.data` holds in IndexedDB).
 *
 *   "RPBM25IX"            8 bytes, magic
 *   version               u32, BM25_INDEX_FORMAT_VERSION
 *   header length H       u32
 *   header                H bytes of UTF-8 JSON: settings, counts, byte lengths of the string sections
 *   sections, each starting on a 4-byte boundary, in this order:
 *     docLengths u32[numDocs] · starts u32[numTerms + 1] · docs u32[numPostings] ·
 *     overflowAt u32[numOverflow] · overflowFreq u32[numOverflow] · termOrder u32[numTerms] ·
 *     norms u8[numDocs] · freqs u8[numPostings] · docIds (UTF-8 JSON array) · terms (UTF-8 JSON array)
 *
 * termOrder is the term ordinals sorted by term (`termOrderOf`, since version 2): an opened index looks a
 * query's terms up in it by binary search, with no map of every term to build first.
 *
 * Numbers are little-endian (typed arrays in the platform's order: every browser and WebAssembly host is
 * little-endian). Strings are JSON so that any id — lone surrogates included — comes back unchanged.
 * Decoding returns views into the buffer; loading copies them into kernel memory once.
 */

/** Bump when the layout, the kernel's arithmetic or the analysis behind stored indexes changes. */
export const BM25_INDEX_FORMAT_VERSION = 2;

const MAGIC = 'RPBM25IX';

interface Header {
  settings: Record<string, unknown>;
  numDocs: number;
  numTerms: number;
  numPostings: number;
  numOverflow: number;
  docCount: number;
  sumTotalTermFreq: number;
  docIdsBytes: number;
  termsBytes: number;
}

/** A stored index that is not one this code can read (wrong magic, other version, truncated, …). */
export class IndexFormatError extends Error {
  override name = 'IndexFormatError';
}

export interface DecodedIndex {
  version: number;
  settings: Record<string, unknown>;
  parts: Bm25IndexParts;
  /** Term ordinals sorted by term (not yet checked: `Bm25WasmIndex.fromParts` does). */
  termOrder: Uint32Array;
}

const align4 = (offset: number) => (offset + 3) & ~3;

/**
 * Where everything goes in the stored form of an index: the encoded header and string sections and the
 * total size, computed before a byte is copied (so the size is known before the buffer is written).
 */
export interface Bm25IndexLayout {
  headerBytes: Uint8Array;
  termOrder: Uint32Array;
  docIds: Uint8Array;
  terms: Uint8Array;
  /** Byte length of the stored form. */
  size: number;
}

/** The sections of `parts` in their stored order. */
function sectionsOf(parts: Bm25IndexParts, layout: Bm25IndexLayout): ArrayBufferView[] {
  return [
    parts.docLengths,
    parts.starts,
    parts.docs,
    parts.overflowAt,
    parts.overflowFreq,
    layout.termOrder,
    parts.norms,
    parts.freqs,
    layout.docIds,
    layout.terms,
  ];
}

export function bm25IndexLayout(parts: Bm25IndexParts, settings: Record<string, unknown>): Bm25IndexLayout {
  const encoder = new TextEncoder();
  const docIds = encoder.encode(JSON.stringify(parts.docIds));
  const terms = encoder.encode(JSON.stringify(parts.terms));
  const header: Header = {
    settings,
    numDocs: parts.docIds.length,
    numTerms: parts.terms.length,
    numPostings: parts.docs.length,
    numOverflow: parts.overflowAt.length,
    docCount: parts.docCount,
    sumTotalTermFreq: parts.sumTotalTermFreq,
    docIdsBytes: docIds.length,
    termsBytes: terms.length,
  };
  const layout: Bm25IndexLayout = { headerBytes: encoder.encode(JSON.stringify(header)), termOrder: termOrderOf(parts.terms), docIds, terms, size: 0 };
  let size = align4(16 + layout.headerBytes.length);
  for (const section of sectionsOf(parts, layout)) size = align4(size + section.byteLength);
  layout.size = size;
  return layout;
}

export function encodeBm25Index(parts: Bm25IndexParts, settings: Record<string, unknown>): ArrayBuffer {
  const layout = bm25IndexLayout(parts, settings);
  const { buffer, bytes } = startBuffer(layout);
  let offset = align4(16 + layout.headerBytes.length);
  for (const section of sectionsOf(parts, layout)) {
    bytes.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), offset);
    offset = align4(offset + section.byteLength);
  }
  return buffer;
}

/**
 * `encodeBm25Index` of a laid-out index, one section at a time with `pause()` before each, so a worker
 * answers searches while it stores its index. `parts()` is asked again after every pause: its arrays may be
 * views into kernel memory, which a search may grow (and so move).
 */
export async function encodeBm25IndexInSteps(parts: () => Bm25IndexParts, layout: Bm25IndexLayout, pause: () => Promise<void>): Promise<ArrayBuffer> {
  const { buffer, bytes } = startBuffer(layout);
  let offset = align4(16 + layout.headerBytes.length);
  const count = sectionsOf(parts(), layout).length;
  for (let s = 0; s < count; s++) {
    await pause();
    const section = sectionsOf(parts(), layout)[s]!;
    bytes.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), offset);
    offset = align4(offset + section.byteLength);
  }
  if (offset !== layout.size) throw new Error(`encoded ${offset} bytes of an index laid out as ${layout.size}`);
  return buffer;
}

/** A buffer of the layout's size with the magic, version and header written. */
function startBuffer(layout: Bm25IndexLayout): { buffer: ArrayBuffer; bytes: Uint8Array } {
  const buffer = new ArrayBuffer(layout.size);
  const bytes = new Uint8Array(buffer);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(buffer);
  view.setUint32(8, BM25_INDEX_FORMAT_VERSION, true);
  view.setUint32(12, layout.headerBytes.length, true);
  bytes.set(layout.headerBytes, 16);
  return { buffer, bytes };
}

function readHeader(buffer: ArrayBuffer): { version: number; header: Header; offset: number } {
  if (buffer.byteLength < 16) throw new IndexFormatError('too short to be a stored BM25 index');
  const magic = new TextDecoder().decode(new Uint8Array(buffer, 0, 8));
  if (magic !== MAGIC) throw new IndexFormatError('not a stored BM25 index (wrong magic)');
  const view = new DataView(buffer);
  const version = view.getUint32(8, true);
  const headerLength = view.getUint32(12, true);
  if (16 + headerLength > buffer.byteLength) throw new IndexFormatError('truncated header');
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 16, headerLength))) as Header;
  } catch (error) {
    throw new IndexFormatError('unreadable header', { cause: error });
  }
  return { version, header, offset: align4(16 + headerLength) };
}

/**
 * Decodes a stored index. Throws `IndexFormatError` when the buffer is not this version's format or is cut
 * short; the arrays' consistency is checked when the index is loaded (`Bm25WasmIndex.fromParts`).
 */
export function decodeBm25Index(buffer: ArrayBuffer): DecodedIndex {
  const { version, header, offset: start } = readHeader(buffer);
  if (version !== BM25_INDEX_FORMAT_VERSION) {
    throw new IndexFormatError(`stored index has format version ${version}, this code reads ${BM25_INDEX_FORMAT_VERSION}`);
  }
  const { numDocs, numTerms, numPostings, numOverflow } = header;
  let offset = start;
  function take<T>(make: (offset: number, length: number) => T, length: number, bytesPer: number): T {
    const end = offset + length * bytesPer;
    if (!Number.isSafeInteger(length) || length < 0 || end > buffer.byteLength) throw new IndexFormatError('truncated index data');
    const section = make(offset, length);
    offset = align4(end);
    return section;
  }
  const u32 = (length: number) => take((at, n) => new Uint32Array(buffer, at, n), length, 4);
  const u8 = (length: number) => take((at, n) => new Uint8Array(buffer, at, n), length, 1);
  const docLengths = u32(numDocs);
  const starts = u32(numTerms + 1);
  const docs = u32(numPostings);
  const overflowAt = u32(numOverflow);
  const overflowFreq = u32(numOverflow);
  const termOrder = u32(numTerms);
  const norms = u8(numDocs);
  const freqs = u8(numPostings);
  const decoder = new TextDecoder();
  const docIds = JSON.parse(decoder.decode(u8(header.docIdsBytes))) as string[];
  const terms = JSON.parse(decoder.decode(u8(header.termsBytes))) as string[];
  if (docIds.length !== numDocs || terms.length !== numTerms) throw new IndexFormatError('string tables do not match the counts');
  return {
    version,
    settings: header.settings,
    termOrder,
    parts: {
      docIds,
      terms,
      docLengths,
      norms,
      starts,
      docs,
      freqs,
      overflowAt,
      overflowFreq,
      docCount: header.docCount,
      sumTotalTermFreq: header.sumTotalTermFreq,
    },
  };
}

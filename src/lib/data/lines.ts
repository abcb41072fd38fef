import { ParseError } from './errors.ts';
import { gunzip, hasGzipMagic } from './gzip.ts';

/** Bytes as they arrive: a web `ReadableStream` (browser, fetch, Node) or any async iterable (Node streams). */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** One line of a text file, without its line terminator. */
export interface Line {
  /** 1-based line number, as an editor shows it. */
  number: number;
  text: string;
}

/** One line before decoding: its bytes without the terminator, the trailing `\r` or the file's BOM. */
export interface RawLine {
  number: number;
  /** May be a view into a buffer that is reused once the next batch is requested: decode it before that. */
  bytes: Uint8Array;
}

export interface ReadLinesOptions {
  /** Name used in error messages (a path or a file name). */
  file: string;
  /** `'auto'` (default) detects gzip by its magic bytes; `true`/`false` force it. */
  gzip?: boolean | 'auto';
  /** Called with the count of raw (possibly compressed) bytes consumed so far, for progress bars. */
  onBytes?: (bytesRead: number) => void;
  /** Stops reading early; the generator then throws the signal's reason. */
  signal?: AbortSignal;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** A string as a byte source, for parsing text that is already in memory (a stored or pasted run). */
export function textSource(text: string): ByteSource {
  const bytes = new TextEncoder().encode(text);
  return (async function* () {
    yield bytes;
  })();
}

/** The chunks of any byte source; an unfinished web stream is cancelled, so a download does not run on unread. */
export async function* byteChunks(source: ByteSource): AsyncGenerator<Uint8Array> {
  if ('getReader' in source) {
    // Not every browser makes ReadableStream async-iterable, so read it explicitly.
    const reader = source.getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          return;
        }
        yield value;
      }
    } finally {
      // Stopped early (abort, error, consumer gone): cancel, so a download does not run on unread.
      if (!finished) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  } else {
    yield* source;
  }
}

/**
 * The source's chunks, with byte counting, cancellation, and failures of the source itself (a disk or
 * network error) turned into `ParseError` kind `io`; an abort still throws the signal's reason.
 */
async function* sourceChunks(source: ByteSource, options: ReadLinesOptions): AsyncGenerator<Uint8Array> {
  const { file, signal } = options;
  signal?.throwIfAborted();
  let bytesRead = 0;
  const chunks = byteChunks(source);
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (error) {
        signal?.throwIfAborted();
        if (error instanceof ParseError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new ParseError(file, 0, 'io', `could not read the file (${message})`, { cause: error });
      }
      signal?.throwIfAborted();
      if (next.done) return;
      bytesRead += next.value.length;
      options.onBytes?.(bytesRead);
      if (next.value.length > 0) yield next.value;
    }
  } finally {
    // Iterated by hand, so closing it (and the stream under it) is up to us when we stop early.
    await chunks.return(undefined).catch(() => undefined);
  }
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/**
 * Looks at the first bytes (gathering tiny chunks until there are two, the gzip magic's length) and
 * returns the stream, decompressed when it is gzip. Nothing is read twice: the peeked bytes are replayed.
 */
async function* maybeGunzipped(chunks: AsyncGenerator<Uint8Array>, options: ReadLinesOptions): AsyncGenerator<Uint8Array> {
  const head: Uint8Array[] = [];
  let headLength = 0;
  while (headLength < 2) {
    const next = await chunks.next();
    if (next.done) break;
    head.push(next.value);
    headLength += next.value.length;
  }
  if (headLength === 0 && options.gzip !== true) return;
  const first = concat(head, headLength);
  const replayed = (async function* () {
    if (first.length > 0) yield first;
    yield* chunks;
  })();
  const gzip = options.gzip ?? 'auto';
  if (gzip === true || (gzip === 'auto' && hasGzipMagic(first))) yield* gunzip(replayed, options.file);
  else yield* replayed;
}

function withoutLineEnd(bytes: Uint8Array): Uint8Array {
  const end = bytes.length;
  return end > 0 && bytes[end - 1] === CARRIAGE_RETURN ? bytes.subarray(0, end - 1) : bytes;
}

function withoutBom(bytes: Uint8Array): Uint8Array {
  const bom = bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
  return bom ? bytes.subarray(3) : bytes;
}

/**
 * What one decompressed chunk adds to the lines: `carried`, a line completed from bytes of earlier chunks,
 * and `body`, the chunk's further whole lines joined by their newlines (a view into the chunk); the last
 * region of a file without a final newline carries its last line.
 */
interface LineRegion {
  carried?: Uint8Array;
  body?: Uint8Array;
}

async function* lineRegions(source: ByteSource, options: ReadLinesOptions): AsyncGenerator<LineRegion> {
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  for await (const chunk of maybeGunzipped(sourceChunks(source, options), options)) {
    options.signal?.throwIfAborted();
    const region: LineRegion = {};
    let start = 0;
    const newline = chunk.indexOf(NEWLINE);
    if (newline === -1) {
      // Copied: the chunk's buffer may be reused once we ask for the next one.
      pending.push(chunk.slice());
      pendingLength += chunk.length;
      continue;
    }
    if (pendingLength > 0) {
      const piece = chunk.subarray(0, newline);
      pending.push(piece);
      region.carried = concat(pending, pendingLength + piece.length);
      pending = [];
      pendingLength = 0;
      start = newline + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) region.body = chunk.subarray(start, last);
    if (last + 1 < chunk.length) {
      const rest = chunk.slice(last + 1);
      pending.push(rest);
      pendingLength += rest.length;
    }
    yield region;
  }
  if (pendingLength > 0) yield { carried: concat(pending, pendingLength) };
}

/** Numbers lines as they are read and removes their `\r` and the file's BOM. */
class LineCounter {
  number = 0;

  next(bytes: Uint8Array): RawLine {
    this.number += 1;
    const content = withoutLineEnd(bytes);
    return { number: this.number, bytes: this.number === 1 ? withoutBom(content) : content };
  }

  /** The raw lines of a region, in order. */
  lines(region: LineRegion): RawLine[] {
    const batch: RawLine[] = [];
    if (region.carried !== undefined) batch.push(this.next(region.carried));
    const body = region.body;
    if (body === undefined) return batch;
    let start = 0;
    for (;;) {
      const newline = body.indexOf(NEWLINE, start);
      if (newline === -1) break;
      batch.push(this.next(body.subarray(start, newline)));
      start = newline + 1;
    }
    batch.push(this.next(body.subarray(start)));
    return batch;
  }
}

/**
 * Splits a byte stream into lines, one batch per decompressed chunk (one await per chunk rather than per
 * line). Lines are cut on bytes before decoding, so an invalid UTF-8 sequence can be reported with its line
 * number, and a cut can never fall inside a multi-byte character (0x0A never occurs inside one). The last
 * line is produced even without a final newline; an empty file produces nothing. A trailing `\r` (CRLF
 * files) and a UTF-8 BOM at the very start of the file are removed.
 */
export async function* readLineBatches(source: ByteSource, options: ReadLinesOptions): AsyncGenerator<RawLine[]> {
  const counter = new LineCounter();
  for await (const region of lineRegions(source, options)) {
    const batch = counter.lines(region);
    if (batch.length > 0) yield batch;
  }
}

/** Decoded lines of one chunk: line `first + i` is `lines[i]`, its text or why it is not UTF-8. */
export interface DecodedLineBatch {
  first: number;
  lines: Array<string | ParseError>;
  /** UTF-8 bytes of the decoded lines minus their UTF-16 length: what their multi-byte characters add. */
  utf8Surplus: number;
}

/**
 * The lines of `readLineBatches`, decoded: a chunk's whole lines in one decoder call (the decoder's cost is
 * mostly per call), line by line only when that fails, so a line of invalid UTF-8 becomes its own
 * `ParseError` as `decodeLine` names it and the other lines read as usual.
 */
export async function* readDecodedLineBatches(source: ByteSource, options: ReadLinesOptions): AsyncGenerator<DecodedLineBatch> {
  const counter = new LineCounter();
  for await (const region of lineRegions(source, options)) {
    const first = counter.number + 1;
    const lines: Array<string | ParseError> = [];
    let utf8Surplus = 0;
    const lineByLine = (raw: RawLine) => {
      const line = decodedOrError(raw, options.file);
      if (typeof line === 'string') utf8Surplus += raw.bytes.length - line.length;
      lines.push(line);
    };
    if (region.carried !== undefined) lineByLine(counter.next(region.carried));
    const decoded = region.body === undefined ? undefined : decodedBody(region.body);
    if (decoded === undefined) {
      if (region.body !== undefined) for (const raw of counter.lines({ body: region.body })) lineByLine(raw);
    } else {
      // Newlines and CRs are one byte and one unit, so the body's difference is its lines' (but for a BOM, below).
      utf8Surplus += region.body!.length - decoded.length;
      for (let text of decoded.split('\n')) {
        counter.number += 1;
        if (text.charCodeAt(text.length - 1) === 0x0d) text = text.slice(0, -1);
        if (counter.number === 1 && text.charCodeAt(0) === 0xfeff) {
          text = text.slice(1);
          utf8Surplus -= 2; // the BOM's 3 bytes were 1 unit of the body, and are not part of the line
        }
        lines.push(text);
      }
    }
    if (lines.length > 0) yield { first, lines, utf8Surplus };
  }
}

/** A region's body decoded (its lines joined by newlines), or undefined when it is not all valid UTF-8. */
function decodedBody(body: Uint8Array): string | undefined {
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}

function decodedOrError(raw: RawLine, file: string): string | ParseError {
  try {
    return decodeLine(raw, file).text;
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
}

// `ignoreBOM: true` keeps a U+FEFF that is not at the start of the file (each decode() call would otherwise
// strip one from the start of every line); the file's own BOM is removed on bytes in readLineBatches.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min = 0x80;
    let max = 0xbf;
    if (b < 0x80) need = 0;
    else if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) min = 0xa0; // overlong
      if (b === 0xed) max = 0x9f; // UTF-16 surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) min = 0x90; // overlong
      if (b === 0xf4) max = 0x8f; // beyond U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? min : 0x80) || c > (k === 1 ? max : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

function utf8Failure(raw: RawLine, file: string): ParseError {
  const { bytes, number } = raw;
  if (number === 1 && bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return new ParseError(file, number, 'invalid-utf8', 'the file is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8');
  }
  const at = firstInvalidUtf8(bytes);
  const where = at < 0 ? '' : ` (byte 0x${bytes[at]!.toString(16).toUpperCase().padStart(2, '0')} at byte ${at + 1})`;
  return new ParseError(file, number, 'invalid-utf8', `the line is not valid UTF-8${where}; is the file Latin-1 or Windows-1252?`);
}

/** Decodes one raw line; invalid UTF-8 becomes a `ParseError` naming the line and the first bad byte. */
export function decodeLine(raw: RawLine, file: string): Line {
  try {
    return { number: raw.number, text: utf8.decode(raw.bytes) };
  } catch {
    throw utf8Failure(raw, file);
  }
}

/**
 * Streaming lines from a byte source (see `readLineBatches`), decoded as UTF-8. gzip input is detected by
 * its magic bytes (or forced by `gzip`) and decompressed on the fly, with its checksum verified.
 */
export async function* readLines(source: ByteSource, options: ReadLinesOptions): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(source, options)) {
    for (const raw of batch) yield decodeLine(raw, options.file);
  }
}

import { ParseError } from './errors.ts';

/**
 * Streaming gzip decompression that checks each member's trailer (RFC 1952 §2.3.1: CRC-32 and ISIZE, the
 * uncompressed length modulo 2^32). fflate inflates but does not check the trailer, and at several cut
 * points it ends a truncated stream without complaint; the trailer check turns those silent short reads
 * into `truncated-gzip` and flipped bits into `invalid-gzip`.
 */

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;
/** Fixed header (10) + trailer (8): no member can be shorter. */
const MIN_MEMBER_BYTES = 18;
const TRAILER_BYTES = 8;
/**
 * How much compressed input is kept to read a member's trailer once fflate has parsed the next header.
 * Real headers are tens of bytes; a longer one (a huge FEXTRA or FNAME) is rejected rather than kept.
 */
const TRAILER_WINDOW = 64 * 1024;
/** Compressed bytes handed to fflate at a time. */
const INFLATE_STEP = 64 * 1024;

export function hasGzipMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
}

const CRC_TABLE = (() => {
  // Reflected CRC-32 (polynomial 0xEDB88320), the checksum gzip and zip use.
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** Continues a CRC-32: `crc32(crc32(0, a), b) === crc32(0, a ++ b)`. */
export function crc32(crc: number, bytes: Uint8Array): number {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * The last compressed bytes seen, addressed by their offset in the whole input: the chunk being inflated
 * (not copied: its source cannot reuse it before we ask for the next one) and copies of earlier tails.
 */
class InputWindow {
  private pieces: { start: number; bytes: Uint8Array }[] = [];
  private end = 0;

  get length(): number {
    return this.end;
  }

  /** Makes `chunk` the current piece; call `retire` once it has been inflated. */
  add(chunk: Uint8Array): void {
    this.pieces.push({ start: this.end, bytes: chunk });
    this.end += chunk.length;
  }

  /** Replaces the current piece by a copy of at most its last TRAILER_WINDOW bytes, drops older pieces. */
  retire(): void {
    const current = this.pieces.pop();
    if (current === undefined) return;
    const keep = Math.min(current.bytes.length, TRAILER_WINDOW);
    this.pieces.push({ start: this.end - keep, bytes: current.bytes.slice(current.bytes.length - keep) });
    while (this.pieces.length > 1 && this.end - this.pieces[1]!.start >= TRAILER_WINDOW) this.pieces.shift();
  }

  /** `count` bytes from absolute `offset`, or undefined when they are no longer (or not yet) held. */
  read(offset: number, count: number): Uint8Array | undefined {
    const first = this.pieces[0];
    if (first === undefined || offset < first.start || offset + count > this.end) return undefined;
    const out = new Uint8Array(count);
    for (const { start, bytes } of this.pieces) {
      for (let i = Math.max(offset, start); i < Math.min(offset + count, start + bytes.length); i++) {
        out[i - offset] = bytes[i - start]!;
      }
    }
    return out;
  }
}

function readUint32LE(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/** Running CRC and length of one member's output. */
interface MemberTally {
  crc: number;
  size: number;
}

function trailerMatches(trailer: Uint8Array, tally: MemberTally): { crc: boolean; size: boolean } {
  return { crc: readUint32LE(trailer, 0) === tally.crc, size: readUint32LE(trailer, 4) === tally.size % 2 ** 32 };
}

function checkTrailer(trailer: Uint8Array, tally: MemberTally, file: string): void {
  const ok = trailerMatches(trailer, tally);
  if (!ok.crc || !ok.size) throw new ParseError(file, 0, 'invalid-gzip', 'the gzip data is corrupted (checksum mismatch)');
}

/** A few stray bytes after the last member (fflate ignores up to three) are garbage, not truncation. */
const MAX_TRAILING_GARBAGE = 3;

/**
 * The last member's trailer must be the input's last 8 bytes. When it is not, a size mismatch almost
 * always means the file was cut short (an interrupted download); a correct size with a wrong CRC means
 * damaged data; a correct trailer a few bytes earlier means junk was appended.
 */
function checkLastTrailer(window: InputWindow, tally: MemberTally, file: string): void {
  const end = window.length;
  const ok = trailerMatches(window.read(end - TRAILER_BYTES, TRAILER_BYTES)!, tally);
  if (ok.crc && ok.size) return;
  for (let extra = 1; extra <= MAX_TRAILING_GARBAGE && end - TRAILER_BYTES - extra >= MIN_MEMBER_BYTES - TRAILER_BYTES; extra++) {
    const earlier = trailerMatches(window.read(end - TRAILER_BYTES - extra, TRAILER_BYTES)!, tally);
    if (earlier.crc && earlier.size) throw new ParseError(file, 0, 'invalid-gzip', `invalid gzip data (${extra} stray ${extra === 1 ? 'byte' : 'bytes'} after the end)`);
  }
  if (!ok.size) throw new ParseError(file, 0, 'truncated-gzip', 'the gzip data ends early (truncated file?)');
  throw new ParseError(file, 0, 'invalid-gzip', 'the gzip data is corrupted (checksum mismatch)');
}

function gzipFailure(error: unknown, file: string): ParseError {
  if (error instanceof ParseError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return /unexpected EOF/i.test(message)
    ? new ParseError(file, 0, 'truncated-gzip', 'the gzip data ends early (truncated file?)', { cause: error })
    : new ParseError(file, 0, 'invalid-gzip', `invalid gzip data (${message})`, { cause: error });
}

/**
 * Decompresses a gzip stream (one or more members) chunk by chunk, so neither the compressed nor the
 * decompressed file is ever held whole. Throws `ParseError` (`truncated-gzip` / `invalid-gzip`, line 0).
 */
export async function* gunzip(chunks: AsyncIterable<Uint8Array>, file: string): AsyncGenerator<Uint8Array> {
  // Loaded when a gzip stream is met: every page imports this module (through the line reader of imported
  // runs), and fflate builds its tables at each load.
  const { Gunzip } = await import('fflate');
  const out: Uint8Array[] = [];
  const window = new InputWindow();
  let tally: MemberTally = { crc: 0, size: 0 };
  const inflater = new Gunzip((data) => {
    out.push(data);
    tally.crc = crc32(tally.crc, data);
    tally.size += data.length;
  });
  // fflate reports where the next member's header starts, after all output of the previous member.
  inflater.onmember = (offset) => {
    const trailer = window.read(offset - TRAILER_BYTES, TRAILER_BYTES);
    if (trailer === undefined) throw new ParseError(file, 0, 'invalid-gzip', 'unsupported gzip header (over 64 KiB)');
    checkTrailer(trailer, tally, file);
    tally = { crc: 0, size: 0 };
  };
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      inflater.push(chunk, final);
    } catch (error) {
      throw gzipFailure(error, file);
    }
  };

  for await (const chunk of chunks) {
    window.add(chunk);
    // fflate sizes its output buffer from the input it is given: small pushes keep that transient small.
    for (let at = 0; at < chunk.length; at += INFLATE_STEP) {
      push(chunk.subarray(at, at + INFLATE_STEP), false);
    }
    window.retire();
    yield* out.splice(0);
  }
  if (window.length < MIN_MEMBER_BYTES) {
    throw new ParseError(file, 0, 'truncated-gzip', `the gzip data ends early (only ${window.length} bytes)`);
  }
  push(new Uint8Array(0), true);
  yield* out.splice(0);
  checkLastTrailer(window, tally, file);
}

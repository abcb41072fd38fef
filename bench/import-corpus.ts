/**
 * A large BEIR corpus made on the fly, never stored: `corpus.jsonl` bytes streamed in chunks of about 64 KiB
 * from a seeded generator, so a test or benchmark can feed hundreds of megabytes to the import path while
 * holding only one chunk. Documents look like BEIR's (an id, a title of a few words, a text of about
 * `textBytes` bytes of words from a fixed vocabulary, sometimes non-ASCII), and the same seed gives the same
 * bytes. Optionally gzip-compressed on the fly (fflate's streaming deflate).
 */
import { Gzip } from 'fflate';

/** The vocabulary: plain words, a few accented ones (2-byte UTF-8) and one CJK word (3-byte UTF-8). */
const WORDS = [
  'protein', 'cell', 'gene', 'expression', 'patients', 'study', 'results', 'increased', 'analysis', 'model',
  'treatment', 'effect', 'clinical', 'risk', 'data', 'response', 'activity', 'levels', 'function', 'human',
  'tumor', 'binding', 'signaling', 'receptor', 'mice', 'factor', 'disease', 'associated', 'role', 'mechanism',
  'naïve', 'café', 'résumé', 'Zürich', 'größe', '細胞', 'the', 'of', 'and', 'in', 'to', 'with', 'a', 'is', 'for',
];

/** mulberry32: a small seeded PRNG (public domain), enough to vary lengths and words reproducibly. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SyntheticCorpusOptions {
  /** Stop after the first document that reaches this many bytes in all. */
  bytes: number;
  /** Average text length in bytes (default 1000). */
  textBytes?: number;
  seed?: number;
  /** Chunk size in bytes (default 64 KiB). */
  chunkBytes?: number;
}

function words(next: () => number, targetChars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < targetChars) {
    const word = WORDS[Math.floor(next() * WORDS.length)]!;
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(' ');
}

/** The corpus lines, in chunks; `counts` is filled in as it goes (documents and bytes produced). */
export async function* syntheticCorpus(options: SyntheticCorpusOptions, counts: { docs: number; bytes: number } = { docs: 0, bytes: 0 }): AsyncGenerator<Uint8Array> {
  const next = random(options.seed ?? 42);
  const textBytes = options.textBytes ?? 1000;
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  const encoder = new TextEncoder();
  let pending: string[] = [];
  let pendingChars = 0;
  while (counts.bytes < options.bytes) {
    const id = `doc${counts.docs}`;
    const line = `${JSON.stringify({ _id: id, title: words(next, 30 + next() * 40), text: words(next, textBytes * (0.5 + next())), metadata: {} })}\n`;
    pending.push(line);
    pendingChars += line.length;
    counts.docs += 1;
    if (pendingChars >= chunkBytes) {
      const chunk = encoder.encode(pending.join(''));
      counts.bytes += chunk.length;
      pending = [];
      pendingChars = 0;
      yield chunk;
    }
  }
  if (pending.length > 0) {
    const chunk = encoder.encode(pending.join(''));
    counts.bytes += chunk.length;
    yield chunk;
  }
}

/** The same bytes gzip-compressed as they are made (level 1, as fast as fflate goes). */
export async function* gzipped(source: AsyncIterable<Uint8Array>, counts: { bytes: number } = { bytes: 0 }): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  const gzip = new Gzip({ level: 1 }, (chunk) => out.push(chunk));
  for await (const chunk of source) {
    gzip.push(chunk, false);
    for (const piece of out.splice(0)) {
      counts.bytes += piece.length;
      yield piece;
    }
  }
  gzip.push(new Uint8Array(0), true);
  for (const piece of out.splice(0)) {
    counts.bytes += piece.length;
    yield piece;
  }
}

/** Peak of a sampled quantity above its value at `start()`. */
export class PeakMeter {
  private base = 0;
  peak = 0;

  constructor(private readonly read: () => number) {}

  start(): void {
    this.base = this.read();
    this.peak = 0;
  }

  sample(): void {
    this.peak = Math.max(this.peak, this.read() - this.base);
  }
}

/**
 * The memo of a pipeline analyzer (analyzer.ts): token spelling → final term, looked up straight from the
 * span of the text being scanned. An open-addressing hash table over the span's UTF-16 code units
 * (FNV-1a) finds a spelling seen before without cutting a substring or hashing a new string, which is what
 * a `Map<string, …>` lookup per token costs (most of the time of analyzing a corpus, whose tokens are
 * nearly all repeats). A miss cuts the substring once and runs the filter chain on it.
 *
 * Terms also get numbers, 0, 1, 2… in order of first appearance (`termNumber`), kept across a reset of the
 * spellings, so an index build can map terms to its ordinals with an array rather than a string lookup.
 */

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;
/** Slot value of an empty slot. */
const EMPTY = -1;
/** Term number of a stop word (the filter dropped the token). */
export const NO_TERM = -1;

function spanHash(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

export class SpanMemo {
  /** Per entry (a distinct spelling): the spelling, its hash and its term's number. */
  private spellings: string[] = [];
  private hashes = new Int32Array(1024);
  private entryTerms = new Int32Array(1024);
  /** Entry per slot, EMPTY when free; at most half full. */
  private slots = new Int32Array(2048).fill(EMPTY);
  private mask = 2047;
  /** Term by number; and number by term, for spellings that stem to a term seen before. */
  private readonly terms: string[] = [];
  private readonly numberOf = new Map<string, number>();

  /**
   * @param filter the filter chain: token text → final term, or null to drop the token.
   * @param limit beyond this many distinct spellings the spellings are forgotten (not the term numbers), so
   *   random strings that never repeat cannot grow the memo without bound.
   */
  constructor(
    private readonly filter: (tokenText: string) => string | null,
    private readonly limit = 500_000,
  ) {}

  /** Distinct spellings remembered now. */
  get size(): number {
    return this.spellings.length;
  }

  /** The term number of the token text[start..end), or NO_TERM when the filter drops it. */
  termNumber(text: string, start: number, end: number): number {
    const hash = spanHash(text, start, end);
    const { slots, spellings, mask } = this;
    const length = end - start;
    let slot = hash & mask;
    for (;;) {
      const entry = slots[slot]!;
      if (entry === EMPTY) break;
      if (this.hashes[entry] === hash) {
        const spelling = spellings[entry]!;
        if (spelling.length === length) {
          let i = 0;
          while (i < length && spelling.charCodeAt(i) === text.charCodeAt(start + i)) i++;
          if (i === length) return this.entryTerms[entry]!;
        }
      }
      slot = (slot + 1) & mask;
    }
    return this.remember(text.slice(start, end), hash, slot);
  }

  /** The term of a number `termNumber` returned. */
  term(number: number): string {
    return this.terms[number]!;
  }

  /** The term of `tokenText` (null for a dropped token), memoized like a span. */
  termOf(tokenText: string): string | null {
    const number = this.termNumber(tokenText, 0, tokenText.length);
    return number === NO_TERM ? null : this.terms[number]!;
  }

  private remember(spelling: string, hash: number, freeSlot: number): number {
    const term = this.filter(spelling);
    let number = NO_TERM;
    if (term !== null) {
      number = this.numberOf.get(term) ?? NO_TERM;
      if (number === NO_TERM) {
        number = this.terms.length;
        this.terms.push(term);
        this.numberOf.set(term, number);
      }
    }
    if (this.spellings.length >= this.limit) {
      this.reset();
      freeSlot = this.freeSlot(hash);
    }
    const entry = this.spellings.length;
    if (entry === this.hashes.length) {
      this.hashes = grow(this.hashes);
      this.entryTerms = grow(this.entryTerms);
    }
    this.spellings.push(spelling);
    this.hashes[entry] = hash;
    this.entryTerms[entry] = number;
    this.slots[freeSlot] = entry;
    if ((entry + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    return number;
  }

  private freeSlot(hash: number): number {
    let slot = hash & this.mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
    return slot;
  }

  private rehash(capacity: number): void {
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    for (let entry = 0; entry < this.spellings.length; entry++) this.slots[this.freeSlot(this.hashes[entry]!)] = entry;
  }

  private reset(): void {
    this.spellings = [];
    this.hashes = new Int32Array(1024);
    this.entryTerms = new Int32Array(1024);
    this.slots = new Int32Array(2048).fill(EMPTY);
    this.mask = 2047;
  }
}

function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

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
/** Length of a free slot. */
const EMPTY = -1;
/** Term number of a stop word (the filter dropped the token). */
export const NO_TERM = -1;

function spanHash(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** Per slot: the spelling's hash, its offset in `chars`, its length (EMPTY: a free slot) and its term number. */
const STRIDE = 4;

export class SpanMemo {
  /**
   * The spellings' UTF-16 units one after the other, compared in place: a contiguous array keeps the
   * spellings of frequent tokens in the CPU cache, where a string per spelling would be a pointer away.
   */
  private chars = new Uint16Array(1 << 16);
  private used = 0;
  private count = 0;
  /** `STRIDE` numbers per slot, at most half the slots in use. */
  private slots = new Int32Array(STRIDE * 2048).fill(EMPTY);
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
    return this.count;
  }

  /** The term number of the token text[start..end), or NO_TERM when the filter drops it. */
  termNumber(text: string, start: number, end: number): number {
    const hash = spanHash(text, start, end);
    const { slots, chars, mask } = this;
    const length = end - start;
    let slot = hash & mask;
    for (;;) {
      const at = slot * STRIDE;
      const slotLength = slots[at + 2]!;
      if (slotLength === EMPTY) break;
      if (slotLength === length && slots[at] === hash) {
        const offset = slots[at + 1]!;
        let i = 0;
        while (i < length && chars[offset + i] === text.charCodeAt(start + i)) i++;
        if (i === length) return slots[at + 3]!;
      }
      slot = (slot + 1) & mask;
    }
    return this.remember(text, start, end, hash, slot);
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

  private remember(text: string, start: number, end: number, hash: number, freeSlot: number): number {
    const term = this.filter(text.slice(start, end));
    let number = NO_TERM;
    if (term !== null) {
      number = this.numberOf.get(term) ?? NO_TERM;
      if (number === NO_TERM) {
        number = this.terms.length;
        this.terms.push(term);
        this.numberOf.set(term, number);
      }
    }
    if (this.count >= this.limit) {
      this.reset();
      freeSlot = this.freeSlot(hash);
    }
    const length = end - start;
    if (this.used + length > this.chars.length) {
      const bigger = new Uint16Array(Math.max(this.chars.length * 2, this.used + length));
      bigger.set(this.chars);
      this.chars = bigger;
    }
    const offset = this.used;
    for (let i = 0; i < length; i++) this.chars[offset + i] = text.charCodeAt(start + i);
    this.used += length;
    const at = freeSlot * STRIDE;
    this.slots[at] = hash;
    this.slots[at + 1] = offset;
    this.slots[at + 2] = length;
    this.slots[at + 3] = number;
    this.count += 1;
    if (this.count * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    return number;
  }

  private freeSlot(hash: number): number {
    let slot = hash & this.mask;
    while (this.slots[slot * STRIDE + 2] !== EMPTY) slot = (slot + 1) & this.mask;
    return slot;
  }

  private rehash(capacity: number): void {
    const old = this.slots;
    this.slots = new Int32Array(STRIDE * capacity).fill(EMPTY);
    this.mask = capacity - 1;
    for (let at = 0; at < old.length; at += STRIDE) {
      if (old[at + 2] === EMPTY) continue;
      this.slots.set(old.subarray(at, at + STRIDE), this.freeSlot(old[at]!) * STRIDE);
    }
  }

  private reset(): void {
    this.chars = new Uint16Array(1 << 16);
    this.used = 0;
    this.count = 0;
    this.slots = new Int32Array(STRIDE * 2048).fill(EMPTY);
    this.mask = 2047;
  }
}

/**
 * Content fingerprints: FNV-1a, 32 bits (Fowler–Noll–Vo, http://www.isthe.com/chongo/tech/comp/fnv/), over
 * UTF-16 code units, with a separator mixed in after each string so ["ab", "c"] and ["a", "bc"] differ. Cheap
 * enough to run over a whole corpus while it streams in (one multiply per character), and enough to notice an
 * edited, reordered or re-split corpus; not a cryptographic hash.
 */

const OFFSET_BASIS = 0x811c9dc5;
const PRIME = 0x01000193;
const SEPARATOR = 0x1f;

/** A running FNV-1a hash over a sequence of strings. */
export class Fingerprint {
  private hash = OFFSET_BASIS;
  private count = 0;

  /** Mixes in one string (and a separator). */
  add(text: string): this {
    let h = this.hash;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, PRIME) >>> 0;
    }
    h ^= SEPARATOR;
    this.hash = Math.imul(h, PRIME) >>> 0;
    this.count += 1;
    return this;
  }

  /** Mixes in 16-bit units as `add` mixes a string's (the same hash as the string of these code units), and a separator. */
  addUnits(units: Uint16Array): this {
    let h = this.hash;
    for (let i = 0; i < units.length; i++) {
      h ^= units[i]!;
      h = Math.imul(h, PRIME) >>> 0;
    }
    h ^= SEPARATOR;
    this.hash = Math.imul(h, PRIME) >>> 0;
    this.count += 1;
    return this;
  }

  /** 8 hex digits. */
  hex(): string {
    return this.hash.toString(16).padStart(8, '0');
  }

  /** Strings mixed in so far. */
  get strings(): number {
    return this.count;
  }
}

/** FNV-1a of one string as 8 hex digits (short file names for long keys). */
export function fnv1a(text: string): string {
  return new Fingerprint().add(text).hex();
}

/** Fingerprint of texts with their ids, in order (8 hex digits): an edited, reordered or re-split list differs. */
export function fingerprintTexts(ids: readonly string[], texts: readonly string[]): string {
  const fingerprint = new Fingerprint();
  ids.forEach((id, i) => fingerprint.add(id).add(texts[i] ?? ''));
  return fingerprint.hex();
}

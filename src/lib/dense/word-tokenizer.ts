/**
 * The whole-word tokenizer of the project's static models, in plain TypeScript: the same tokens as their
 * tokenizer.json run by @huggingface/tokenizers (scripts/models/glove-static.ts writes both), without
 * parsing a 7 MB JSON vocabulary or loading transformers.js. The steps are those of that library:
 *
 *   1. added tokens ([PAD], [UNK], not normalized) are cut out of the raw text first and kept as tokens;
 *   2. every other piece is lowercased (normalizer `Lowercase`: String.prototype.toLowerCase);
 *   3. BertPreTokenizer: runs of characters that are neither whitespace nor punctuation, and single
 *      punctuation characters (its PUNCTUATION_REGEX: \p{P} and ASCII symbols);
 *   4. WordLevel: a token is its vocabulary id, [UNK] otherwise;
 *   5. truncation to the first `maxLength` tokens (transformers.js `truncation: true`, model_max_length).
 *
 * tests/lib/dense/static-table.test.ts checks the ids against tokenizer.json on every SciFact text.
 */

/** Characters @huggingface/tokenizers' BertPreTokenizer treats as punctuation (its PUNCTUATION_REGEX). */
const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const IS_SPACE = /^\s$/u;
const IS_PUNCTUATION = new RegExp(`^[${PUNCTUATION}]$`, 'u');

/** Character classes of the pre-tokenizer. */
const WORD = 0;
const SPACE = 1;
const PUNCT = 2;

function classify(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  return IS_SPACE.test(char) ? SPACE : IS_PUNCTUATION.test(char) ? PUNCT : WORD;
}

/**
 * The class of every UTF-16 code unit below 0x3100 (Latin, Greek, Cyrillic, general punctuation, CJK
 * symbols: nearly every character of English text), from the same regular expressions as the library's
 * pattern `[^\s${PUNCTUATION}]+|[${PUNCTUATION}]` (flag u); others are classified once and remembered.
 */
const TABLE_SIZE = 0x3100;
const CLASS_TABLE = (() => {
  const table = new Uint8Array(TABLE_SIZE);
  for (let cp = 0; cp < TABLE_SIZE; cp++) table[cp] = classify(cp);
  return table;
})();
const CLASS_CACHE = new Map<number, number>();

function classOf(codePoint: number): number {
  if (codePoint < TABLE_SIZE) return CLASS_TABLE[codePoint]!;
  let c = CLASS_CACHE.get(codePoint);
  if (c === undefined) {
    c = codePoint >= 0xd800 && codePoint <= 0xdfff ? WORD : classify(codePoint);
    CLASS_CACHE.set(codePoint, c);
  }
  return c;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;
/** Numbers per slot of VocabIndex. */
const SLOT = 4;

/**
 * Token → id without building a string per token: an open-addressing hash table over the UTF-16 code
 * units of the tokens (FNV-1a), probed straight from the text being scanned. A Map<string, number> would
 * need a substring and a string hash per token, which is most of the time of a static-model embedding.
 */
export class VocabIndex {
  /** The tokens' UTF-16 units, one line per token (token id is line id), compared in place by `find`. */
  private readonly chars: Uint16Array;
  /**
   * Per slot: the token's hash, its start in `chars`, its length (-1: free slot) and its id; one record
   * per probe, so a lookup touches one place in memory before comparing characters.
   */
  private readonly slots: Int32Array;
  private readonly mask: number;
  readonly size: number;

  /** `tokens[id]` is the token of id `id`. */
  static of(tokens: readonly string[]): VocabIndex {
    const broken = tokens.find((token) => token.includes('\n'));
    if (broken !== undefined) throw new Error(`a vocabulary token holds a line break: ${JSON.stringify(broken)}`);
    return new VocabIndex(tokens.join('\n'));
  }

  /**
   * Indexes a vocabulary file: one token per line, line i being token id i (a final newline ends the last
   * line; a token listed twice keeps its first id). No array of strings is built.
   */
  constructor(lines: string) {
    const text = lines.endsWith('\n') ? lines.slice(0, -1) : lines;
    let rows = 1;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) rows++;
    this.chars = new Uint16Array(text.length);
    for (let i = 0; i < text.length; i++) this.chars[i] = text.charCodeAt(i);
    let capacity = 1;
    while (capacity < rows * 2) capacity *= 2;
    this.slots = new Int32Array(capacity * SLOT).fill(-1);
    this.mask = capacity - 1;
    this.size = rows;
    let from = 0;
    for (let id = 0; id < rows; id++) {
      const newline = text.indexOf('\n', from);
      const to = newline < 0 ? text.length : newline;
      const h = VocabIndex.hash(text, from, to);
      if (this.find(text, from, to, h) < 0) {
        let slot = h & this.mask;
        while (this.slots[slot * SLOT + 2] !== -1) slot = (slot + 1) & this.mask;
        const at = slot * SLOT;
        this.slots[at] = h;
        this.slots[at + 1] = from;
        this.slots[at + 2] = to - from;
        this.slots[at + 3] = id;
      }
      from = to + 1;
    }
  }

  /** FNV-1a hash of text[start..end), as the constructor computes it. */
  static hash(text: string, start: number, end: number): number {
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    return h;
  }

  /** The id of the token text[start..end) whose hash is `hash`, or -1. */
  find(text: string, start: number, end: number, hash: number): number {
    const { slots, chars, mask } = this;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = slot * SLOT;
      const slotLength = slots[at + 2]!;
      if (slotLength === -1) return -1;
      if (slotLength !== length || slots[at] !== hash) continue;
      const from = slots[at + 1]!;
      let i = 0;
      while (i < length && chars[from + i] === text.charCodeAt(start + i)) i++;
      if (i === length) return slots[at + 3]!;
    }
  }

  get(token: string): number | undefined {
    const id = this.find(token, 0, token.length, VocabIndex.hash(token, 0, token.length));
    return id < 0 ? undefined : id;
  }
}

export interface WordTokenizerOptions {
  /** Token of unknown words; must be in the vocabulary. */
  unkToken: string;
  /** Tokens matched verbatim in the raw text before normalization (the added tokens); must be in the vocabulary. */
  addedTokens: readonly string[];
  /** Tokens kept per text. */
  maxLength: number;
}

export class WordTokenizer {
  readonly maxLength: number;
  readonly unkId: number;
  private readonly ids: VocabIndex;
  private readonly added: Map<string, number>;
  /** Matches any added token, or undefined when there are none. */
  private readonly addedPattern: RegExp | undefined;

  /** `vocab` is a VocabIndex, or the tokens by id. */
  constructor(vocab: VocabIndex | readonly string[], options: WordTokenizerOptions) {
    this.ids = vocab instanceof VocabIndex ? vocab : VocabIndex.of(vocab);
    const idOf = (token: string) => {
      const id = this.ids.get(token);
      if (id === undefined) throw new Error(`the vocabulary has no "${token}" token`);
      return id;
    };
    this.unkId = idOf(options.unkToken);
    this.added = new Map(options.addedTokens.map((token) => [token, idOf(token)]));
    // Longest first: the library's splitter takes the longest added token that matches at a position.
    const escaped = [...options.addedTokens].sort((a, b) => b.length - a.length).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.addedPattern = escaped.length > 0 ? new RegExp(escaped.join('|'), 'g') : undefined;
    this.maxLength = options.maxLength;
  }

  get vocabSize(): number {
    return this.ids.size;
  }

  /** The token ids of `text`, as tokenizer.json gives them (no special tokens added, truncated). */
  encode(text: string): number[] {
    const ids = new Int32Array(this.maxLength);
    return Array.from(ids.subarray(0, this.encodeInto(text, ids)));
  }

  /**
   * Writes the token ids of `text` into `ids` (length ≥ maxLength) and returns their number. The embedding
   * loop runs on this with one buffer for all texts, so no array of tokens is built.
   */
  encodeInto(text: string, ids: Int32Array): number {
    const pattern = this.addedPattern;
    if (pattern === undefined || !this.mayHoldAdded(text)) return this.words(text, ids, 0);
    let count = 0;
    let start = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null && count < this.maxLength; m = pattern.exec(text)) {
      if (m.index > start) count = this.words(text.slice(start, m.index), ids, count);
      if (count < this.maxLength) ids[count++] = this.added.get(m[0])!;
      start = m.index + m[0].length;
    }
    if (start < text.length && count < this.maxLength) count = this.words(text.slice(start), ids, count);
    return count;
  }

  private mayHoldAdded(text: string): boolean {
    for (const token of this.added.keys()) if (text.includes(token)) return true;
    return false;
  }

  /** Steps 2–5 on a piece of text without added tokens, appending at ids[count]. */
  private words(piece: string, out: Int32Array, count: number): number {
    const lower = piece.toLowerCase();
    const ids = this.ids;
    const unk = this.unkId;
    const max = this.maxLength;
    const n = lower.length;
    let i = 0;
    while (i < n && count < max) {
      let cp = lower.charCodeAt(i);
      let width = 1;
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
        const low = lower.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      const kind = cp < TABLE_SIZE ? CLASS_TABLE[cp]! : classOf(cp);
      if (kind === SPACE) {
        i += width;
      } else if (kind === PUNCT) {
        const id = ids.find(lower, i, i + width, VocabIndex.hash(lower, i, i + width));
        out[count++] = id < 0 ? unk : id;
        i += width;
      } else {
        // A run of word characters, hashed as it is scanned (VocabIndex.hash over its UTF-16 units).
        const start = i;
        let h = FNV_OFFSET;
        for (let k = 0; k < width; k++) h = Math.imul(h ^ lower.charCodeAt(i + k), FNV_PRIME);
        i += width;
        while (i < n) {
          cp = lower.charCodeAt(i);
          width = 1;
          if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
            const low = lower.charCodeAt(i + 1);
            if (low >= 0xdc00 && low <= 0xdfff) {
              cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
              width = 2;
            }
          }
          if ((cp < TABLE_SIZE ? CLASS_TABLE[cp]! : classOf(cp)) !== WORD) break;
          if (width === 1) h = Math.imul(h ^ cp, FNV_PRIME);
          else h = Math.imul(Math.imul(h ^ lower.charCodeAt(i), FNV_PRIME) ^ lower.charCodeAt(i + 1), FNV_PRIME);
          i += width;
        }
        const id = ids.find(lower, start, i, h);
        out[count++] = id < 0 ? unk : id;
      }
    }
    return count;
  }
}

/**
 * BM25 over BERT WordPiece tokens: the "BM25 (Ours)" of "BM25 query augmentation"
 * (../shared/papers/bm25-query-augmentation.txt), whose documents and queries are tokenized by the
 * tokenizer of the model (all-MiniLM-L6-v2's uncased BERT vocabulary, 30,522 tokens) before indexing.
 * The steps are those of that tokenizer's tokenizer.json (BertNormalizer, BertPreTokenizer, WordPiece):
 *
 *   1. clean text: NUL, U+FFFD and other control/format characters (Unicode C*, except tab, line feed and
 *      carriage return, which are whitespace) are removed — they do not split words;
 *   2. CJK ideographs become tokens of their own;
 *   3. whitespace splits words and every punctuation character (Unicode P*, and the ASCII symbols) is a
 *      token of its own;
 *   4. each word is decomposed (NFD), stripped of non-spacing marks (accents) and lower-cased;
 *   5. WordPiece: the longest vocabulary entry that starts the word, then the longest `##`-prefixed entry
 *      that continues it, and so on; a word that cannot be covered this way, or longer than 100
 *      characters, is one `[UNK]`.
 *
 * Terms are the tokens as strings (`cancer`, `##ous`); `[UNK]` is dropped by default (it would match every
 * document with any unknown word), and no stop words or stemming are applied. There is no truncation: BM25
 * indexes the whole text. The vocabulary is a `vocab.txt` (one token per line, as BERT models ship it);
 * the app can load the one `npm run models` puts in `public/models/local/tiny-bert/`.
 *
 * Offsets: each subword token carries the span of its whole word in the original text.
 */
import type { Analyzer, Token } from './analyzer.ts';

export const WORDPIECE_ANALYZER_NAME = 'wordpiece';

export interface WordPieceOptions {
  /** Keep `[UNK]` tokens as terms (as the model sees them); default false. */
  keepUnknown?: boolean;
  unkToken?: string;
  /** Characters beyond which a word is `[UNK]` (tokenizer.json `max_input_chars_per_word`). */
  maxInputCharsPerWord?: number;
  continuingSubwordPrefix?: string;
}

const PUNCTUATION = /[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]/u;
const WHITESPACE = /\s/u;
const OTHER = /\p{C}/u;
const NONSPACING_MARKS = /\p{Mn}/gu;

/** The "Chinese character" blocks of BERT's `_is_chinese_char`. */
function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/** What a character does: part of a word, a separator, nothing (removed), a token of its own. */
const WORD = 0;
const SPACE = 1;
const REMOVED = 2;
const SINGLE = 3;

function kindOf(cp: number, char: string): number {
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) return SPACE;
  if (cp === 0 || cp === 0xfffd || OTHER.test(char)) return REMOVED;
  if (WHITESPACE.test(char)) return SPACE;
  if (PUNCTUATION.test(char) || isCjk(cp)) return SINGLE;
  return WORD;
}

/** The tokens of a vocab.txt: one per line, a final newline allowed, `\r` line ends tolerated. */
export function parseVocab(vocabText: string): string[] {
  const lines = vocabText.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Beyond this many distinct words the memo is emptied, as in `pipelineAnalyzer`. */
const MEMO_LIMIT = 500_000;

/** A WordPiece analyzer over a vocabulary (the text of a vocab.txt, or its tokens). */
export function wordPieceAnalyzer(vocab: string | readonly string[], options: WordPieceOptions = {}): Analyzer {
  const tokens = typeof vocab === 'string' ? parseVocab(vocab) : vocab;
  const entries = new Set(tokens);
  const unk = options.unkToken ?? '[UNK]';
  const prefix = options.continuingSubwordPrefix ?? '##';
  const maxChars = options.maxInputCharsPerWord ?? 100;
  const keepUnknown = options.keepUnknown ?? false;
  if (entries.size === 0) throw new RangeError('the WordPiece vocabulary is empty');
  const unknown: readonly string[] = keepUnknown ? [unk] : [];
  const memo = new Map<string, readonly string[]>();

  /** WordPiece of one normalized word. */
  const pieces = (word: string): readonly string[] => {
    const chars = Array.from(word);
    if (chars.length > maxChars) return unknown;
    // Code-unit offset of each character boundary, so candidates are slices of the word.
    const bounds = [0];
    for (const char of chars) bounds.push(bounds[bounds.length - 1]! + char.length);
    const out: string[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: string | undefined;
      while (end > start) {
        const candidate = (start > 0 ? prefix : '') + word.slice(bounds[start], bounds[end]);
        if (entries.has(candidate)) {
          found = candidate;
          break;
        }
        end--;
      }
      if (found === undefined) return unknown;
      out.push(found);
      start = end;
    }
    return out;
  };

  const termsOfWord = (raw: string): readonly string[] => {
    let terms = memo.get(raw);
    if (terms === undefined) {
      const word = raw.normalize('NFD').replace(NONSPACING_MARKS, '').toLowerCase();
      terms = word === '' ? [] : pieces(word);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(raw, terms);
    }
    return terms;
  };

  /** Calls `sink(terms, start, end)` for every word and single-character token, in order. */
  const scan = (text: string, sink: (terms: readonly string[], start: number, end: number) => void) => {
    let word = '';
    let wordStart = -1;
    let wordEnd = -1;
    const flush = () => {
      if (wordStart >= 0) sink(termsOfWord(word), wordStart, wordEnd);
      word = '';
      wordStart = -1;
    };
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i)!;
      const char = String.fromCodePoint(cp);
      const next = i + char.length;
      const kind = kindOf(cp, char);
      if (kind === WORD) {
        if (wordStart < 0) wordStart = i;
        word += char;
        wordEnd = next;
      } else if (kind === SPACE) {
        flush();
      } else if (kind === SINGLE) {
        flush();
        sink(termsOfWord(char), i, next);
      }
      i = next;
    }
    flush();
  };

  return {
    name: WORDPIECE_ANALYZER_NAME,
    analyze(text) {
      const terms: string[] = [];
      scan(text, (wordTerms) => {
        for (const term of wordTerms) terms.push(term);
      });
      return terms;
    },
    analyzeWithOffsets(text) {
      const out: Token[] = [];
      scan(text, (wordTerms, start, end) => {
        for (const term of wordTerms) out.push({ term, start, end });
      });
      return out;
    },
  };
}

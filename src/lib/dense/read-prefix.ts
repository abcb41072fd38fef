/**
 * The part of a text a model reads. A model truncates its input to maxLength tokens, but transformers.js's
 * tokenizer first works through the whole text (normalizer, pre-tokenizer, WordPiece/BPE/Unigram over every
 * character). Embedding SciFact's abstracts with tiny BERT (maxLength 128) spent two thirds of its time there.
 *
 * Why a prefix gives the same tokens: every space-separated run of characters that holds a letter or a digit
 * becomes at least one token, and a tokenizer whose pre-tokenizer splits at spaces tokenizes the words before
 * a space without looking past it. So the text up to the end of its maxLength-th such run holds at least
 * maxLength tokens, and they are the first maxLength tokens of the whole text. Only U+0020 counts as a
 * separator: a tab or a line break inside a run makes it count once where it yields more tokens, which only
 * cuts later. (Every SciFact document's ids are the same: tests/lib/dense/read-prefix.test.ts.)
 */

/** Pre-tokenizers that split at spaces: BERT's, whitespace splitting, SentencePiece's Metaspace, GPT-2's byte level. */
const SPLITS_AT_SPACES = new Set(['BertPreTokenizer', 'Whitespace', 'WhitespaceSplit', 'Metaspace', 'ByteLevel']);
/** Pre-tokenizers that only split further (never join across a space), allowed beside one of the above. */
const ONLY_SPLITS = new Set(['Punctuation', 'Digits', 'Split', 'UnicodeScripts', 'CharDelimiterSplit']);

interface PreTokenizerJson {
  type?: string;
  pretokenizers?: PreTokenizerJson[];
  split?: boolean;
  use_regex?: boolean;
}

function splitsAtSpaces(pre: PreTokenizerJson): boolean {
  if (pre.type === 'Metaspace') return pre.split !== false;
  if (pre.type === 'ByteLevel') return pre.use_regex !== false;
  return SPLITS_AT_SPACES.has(pre.type ?? '');
}

/**
 * True when a prefix may stand for the text: the tokenizer.json's pre-tokenizer splits at spaces (alone or in
 * a sequence of splitters), and no added token spans a space (a cut could fall inside one).
 */
export function readsPrefixes(tokenizerJson: { pre_tokenizer?: PreTokenizerJson | null; added_tokens?: Array<{ content: string }> } | undefined): boolean {
  // undefined: a transformers.js that no longer keeps the parsed tokenizer.json where the embedder looks.
  const pre = tokenizerJson?.pre_tokenizer;
  if (!pre) return false;
  const members = pre.type === 'Sequence' ? (pre.pretokenizers ?? []) : [pre];
  const splits = members.some(splitsAtSpaces) && members.every((member) => splitsAtSpaces(member) || ONLY_SPLITS.has(member.type ?? ''));
  return splits && !(tokenizerJson?.added_tokens ?? []).some((token) => token.content.includes(' '));
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The text up to the end of its `runs`-th space-separated run that holds a letter or a digit (all of it when shorter). */
export function readPrefix(text: string, runs: number): string {
  // A text this short cannot hold `runs` runs (each a character and a space): most queries and short
  // documents return at once.
  if (text.length < runs * 2) return text;
  let counted = 0;
  let runStart = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text.charCodeAt(i) === 32) {
      if (runStart >= 0 && LETTER_OR_DIGIT.test(text.slice(runStart, i)) && ++counted >= runs) return text.slice(0, i);
      runStart = -1;
    } else if (runStart < 0) {
      runStart = i;
    }
  }
  return text;
}

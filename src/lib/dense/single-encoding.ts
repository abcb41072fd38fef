/**
 * One text → the token ids an embedding model reads, truncated as sentence-transformers truncates it
 * (Hugging Face tokenizers): the text's own tokens are cut to maxLength minus what the post-processor adds,
 * then wrapped in the special tokens ([CLS] … [SEP], <s> … </s>), so a long text keeps its closing token.
 * transformers.js 4.3 adds the special tokens first and then cuts the whole sequence, which drops the
 * closing token; so texts are not left to its truncation (as pairs are not: src/lib/rerank/pair-encoding.ts).
 *
 * The special tokens are read off the tokenizer by encoding probe texts with and without them
 * (singleTemplateOf), so any post-processor that wraps a text in fixed tokens works (BERT, XLM-R, none),
 * and one that does something else is refused with a message rather than encoded wrongly.
 */
import { indexOfRun } from './token-ids.ts';

/** What single-text encoding needs of a tokenizer (transformers.js's, or a fake in tests). */
export interface SingleTokenizer {
  /** Token ids of a text without special tokens, not truncated. */
  ids(text: string): number[];
  /** The tokenizer's own encoding of a text with its special tokens, not truncated. */
  withSpecialTokens(text: string): number[];
}

/** The special tokens before and after a text's own tokens. */
export interface SingleTemplate {
  prefix: number[];
  suffix: number[];
}

const PROBES = ['what causes rain', 'a b, c. d'];

function templateFrom(tokenizer: SingleTokenizer, probe: string): SingleTemplate {
  const own = tokenizer.ids(probe);
  const full = tokenizer.withSpecialTokens(probe);
  const at = own.length === 0 ? -1 : indexOfRun(full, own);
  if (at < 0) throw new Error(`the tokenizer's encoding of "${probe}" does not hold the text's own tokens in order`);
  return { prefix: full.slice(0, at), suffix: full.slice(at + own.length) };
}

/** The tokenizer's single-text template; throws when two probes disagree or a probe's tokens are not found. */
export function singleTemplateOf(tokenizer: SingleTokenizer): SingleTemplate {
  const [first, ...others] = PROBES.map((probe) => templateFrom(tokenizer, probe));
  for (const other of others) {
    if (JSON.stringify(other) !== JSON.stringify(first)) throw new Error('the tokenizer adds different special tokens to different texts');
  }
  return first!;
}

/** [prefix] the first maxLength − |prefix| − |suffix| of `ids` [suffix]. */
export function encodeSingle(template: SingleTemplate, ids: readonly number[], maxLength: number): number[] {
  const room = maxLength - template.prefix.length - template.suffix.length;
  if (room < 1) throw new Error(`maxLength ${maxLength} leaves no room for a text beside its ${template.prefix.length + template.suffix.length} special tokens`);
  return [...template.prefix, ...ids.slice(0, room), ...template.suffix];
}

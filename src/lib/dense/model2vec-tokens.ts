/**
 * The token ids model2vec's StaticModel averages for a text (minishlab/potion-*), as its `tokenize` picks
 * them: the text cut to maxLength × (the median token length of the vocabulary) characters, tokenized
 * without special tokens, the unknown token dropped (a word-level or unseen-script text would otherwise
 * pull its vector towards the [UNK] row), then the first maxLength ids kept. Lengths count code points, as
 * Python's len and slices do.
 */

function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** int(numpy.median(len(token) for token in vocabulary)): the mean of the two middle lengths, truncated. */
export function medianTokenLength(tokens: Iterable<string>): number {
  const lengths = Array.from(tokens, codePointLength).sort((a, b) => a - b);
  if (lengths.length === 0) return 0;
  const middle = lengths.length >> 1;
  return Math.trunc(lengths.length % 2 === 1 ? lengths[middle]! : (lengths[middle - 1]! + lengths[middle]!) / 2);
}

/** The first `count` code points of a text. */
export function firstCodePoints(text: string, count: number): string {
  // Every code point is at least one UTF-16 unit: a text this short is whole.
  if (text.length <= count) return text;
  let taken = 0;
  let end = 0;
  for (const char of text) {
    if (taken === count) break;
    taken++;
    end += char.length;
  }
  return text.slice(0, end);
}

/** The text model2vec tokenizes: its first maxLength × medianLength code points. */
export function model2vecText(text: string, maxLength: number, medianLength: number): string {
  return firstCodePoints(text, maxLength * medianLength);
}

/** The ids model2vec averages: the unknown token's dropped, then the first maxLength kept. */
export function model2vecIds(ids: readonly number[], unkId: number | undefined, maxLength: number): number[] {
  const known = unkId === undefined ? ids : ids.filter((id) => id !== unkId);
  return known.slice(0, maxLength);
}

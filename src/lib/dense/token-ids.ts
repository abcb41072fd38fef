/**
 * Token id sequences as the models' inputs are made of them: finding a text's own tokens inside a
 * tokenizer's encoding (how single-encoding.ts and the re-ranker's pair-encoding.ts read the special tokens
 * off a tokenizer), and padding encoded sequences into a batch's tensors.
 */

/** The first position at or after `from` where `needle` stands in `haystack` (-1: nowhere). */
export function indexOfRun(haystack: readonly number[], needle: readonly number[], from = 0): number {
  outer: for (let i = from; i + needle.length <= haystack.length; i++) {
    for (let k = 0; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

/** Row-major [rows, width] tensors of a batch, padded on the right with the pad id (mask 0, type 0). */
export interface PaddedBatch {
  rows: number;
  width: number;
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds: BigInt64Array;
}

/** Pads encoded sequences (segment ids 0 where a sequence has none) into one batch. */
export function padBatch(sequences: readonly { readonly ids: readonly number[]; readonly typeIds?: readonly number[] }[], padId: number): PaddedBatch {
  const width = sequences.reduce((max, sequence) => Math.max(max, sequence.ids.length), 0);
  const rows = sequences.length;
  const inputIds = new BigInt64Array(rows * width).fill(BigInt(padId));
  const attentionMask = new BigInt64Array(rows * width);
  const tokenTypeIds = new BigInt64Array(rows * width);
  sequences.forEach(({ ids, typeIds }, row) => {
    const at = row * width;
    for (let i = 0; i < ids.length; i++) {
      inputIds[at + i] = BigInt(ids[i]!);
      attentionMask[at + i] = 1n;
      if (typeIds !== undefined) tokenTypeIds[at + i] = BigInt(typeIds[i]!);
    }
  });
  return { rows, width, inputIds, attentionMask, tokenTypeIds };
}

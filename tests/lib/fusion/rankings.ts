import fc from 'fast-check';
import type { Hit } from '../../../src/lib/types.ts';

/**
 * A random ranking as retrieval returns one: distinct document ids drawn from a small pool (so rankings
 * overlap), scores non-increasing. With `distinctScores`, scores strictly decrease.
 */
export function rankingArbitrary(options: { distinctScores?: boolean } = {}): fc.Arbitrary<Hit[]> {
  const ids = fc.uniqueArray(fc.constantFrom(...'abcdefghijklmnop'.split('').map((c) => `d${c}`)), { maxLength: 12 });
  const scores = fc.array(fc.double({ min: -50, max: 50, noNaN: true, noDefaultInfinity: true }), {
    minLength: 12,
    maxLength: 12,
  });
  return fc.tuple(ids, scores).map(([docIds, raw]) => {
    const sorted = [...raw].sort((x, y) => y - x);
    const values = options.distinctScores ? sorted.map((_, i) => 100 - i) : sorted;
    return docIds.map((docId, i) => ({ docId, score: values[i]! }));
  });
}

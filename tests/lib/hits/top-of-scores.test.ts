import fc from 'fast-check';
import { expect, test } from 'vitest';
import { TopK } from '../../../src/lib/hits/top-k.ts';
import { topOfScores } from '../../../src/lib/hits/top-of-scores.ts';

/** The reference: every row, stably sorted by score descending (lower row first among equals). */
function fullSort(scores: Float64Array, k: number): Array<{ row: number; score: number }> {
  return Array.from(scores, (score, row) => ({ row, score }))
    .sort((a, b) => b.score - a.score || a.row - b.row)
    .slice(0, k);
}

function asPairs(ranked: { rows: Int32Array; scores: Float64Array }): Array<{ row: number; score: number }> {
  return Array.from(ranked.rows, (row, i) => ({ row, score: ranked.scores[i]! }));
}

// Few distinct values make ties at the threshold common; -0 and 0 are equal scores in both orders.
const scoreArb = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constantFrom(0, -0, 1, 0.5, -2, Infinity, -Infinity));

test('topOfScores equals a full stable sort cut at k, scores bit for bit (property)', () => {
  fc.assert(
    fc.property(fc.array(scoreArb, { maxLength: 300 }), fc.integer({ min: 0, max: 320 }), fc.boolean(), (values, k, withScratch) => {
      const scores = Float64Array.from(values);
      const found = asPairs(topOfScores(scores, k, withScratch ? new Float64Array(values.length + 3) : undefined));
      const expected = fullSort(scores, k);
      expect(found.map((h) => h.row)).toEqual(expected.map((h) => h.row));
      found.forEach((h) => expect(Object.is(h.score, scores[h.row])).toBe(true));
      expect(Array.from(scores)).toEqual(values); // the input is not reordered
    }),
    { numRuns: 500 },
  );
});

test('on a large array with many ties it keeps the lowest rows of the tied score', () => {
  const scores = new Float64Array(5183).map((_, r) => (r % 7) / 7);
  const found = topOfScores(scores, 1000);
  expect(asPairs(found)).toEqual(fullSort(scores, 1000));
});

test('scores with NaN are ranked as the heap ranks them', () => {
  const scores = Float64Array.of(0.3, Number.NaN, 0.9, 0.1, Number.NaN, 0.5);
  const top = new TopK(4);
  scores.forEach((score, row) => top.offer(row, score));
  const expected = top.sorted((row, score) => ({ row, score }));
  expect(asPairs(topOfScores(scores, 4))).toEqual(expected);
});

test('k must be a non-negative integer', () => {
  expect(() => topOfScores(new Float64Array(3), -1)).toThrow(/non-negative/);
  expect(() => topOfScores(new Float64Array(3), 1.5)).toThrow(/non-negative/);
  expect(topOfScores(new Float64Array(3), 0).rows).toHaveLength(0);
});

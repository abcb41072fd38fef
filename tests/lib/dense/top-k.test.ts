import fc from 'fast-check';
import { expect, test } from 'vitest';
import { TopK } from '../../../src/lib/dense/top-k.ts';

test('TopK keeps the same rows, in the same order, as a stable sort by score (property)', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 200 }), fc.integer({ min: 0, max: 50 }), (scores, k) => {
      const top = new TopK(k);
      scores.forEach((s, row) => top.offer(row, s));
      const expected = scores
        .map((score, row) => ({ row, score }))
        .sort((a, b) => b.score - a.score || a.row - b.row)
        .slice(0, k);
      expect(top.sorted()).toEqual(expected);
    }),
  );
});

import { expect, test } from 'vitest';
import { qrelsFingerprint, queriesFingerprint } from '../../../src/lib/judging/fingerprints.ts';

test('a changed grade, a new judgment or a removed one changes the judgments fingerprint; equal judgments give equal ones', () => {
  const base = () => new Map([['q1', new Map([['d1', 2], ['d2', 0]])]]);
  const key = qrelsFingerprint(base());
  expect(key).toMatch(/^2:[0-9a-f]{8}$/);
  expect(qrelsFingerprint(base())).toBe(key);
  expect(qrelsFingerprint(new Map([['q1', new Map([['d1', 3], ['d2', 0]])]]))).not.toBe(key);
  expect(qrelsFingerprint(new Map([['q1', new Map([['d1', 2]])]]))).not.toBe(key);
  expect(qrelsFingerprint(new Map([['q1', new Map([['d1', 2], ['d2', 0]])], ['q2', new Map([['d1', 1]])]]))).not.toBe(key);
  // The same ids split differently are other judgments.
  expect(qrelsFingerprint(new Map([['q1', new Map([['d12', 0]])]]))).not.toBe(qrelsFingerprint(new Map([['q1d', new Map([['12', 0]])]])));
});

test('queries: ids and texts count, in order', () => {
  const key = queriesFingerprint([{ id: 'q1', text: 'wild yeast' }, { id: 'q2', text: 'glaciers' }]);
  expect(queriesFingerprint([{ id: 'q1', text: 'wild yeast' }, { id: 'q2', text: 'glaciers' }])).toBe(key);
  expect(queriesFingerprint([{ id: 'q1', text: 'wild yeast bread' }, { id: 'q2', text: 'glaciers' }])).not.toBe(key);
  expect(queriesFingerprint([{ id: 'q1', text: 'wild yeast' }])).not.toBe(key);
});

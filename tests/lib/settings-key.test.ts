import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settingsKey } from '../../src/lib/settings-key.ts';

/** The value with object keys sorted at every level (what JSON.stringify then prints canonically). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortedKeys(record[key])]));
}

describe('settingsKey', () => {
  it('is the same for equal settings whatever the key order, and differs when a value differs', () => {
    expect(settingsKey({ k1: 0.9, b: 0.4, analyzer: 'english' })).toBe(settingsKey({ analyzer: 'english', b: 0.4, k1: 0.9 }));
    expect(settingsKey({ b: 1, a: { y: [2, 1], x: null } })).toBe(settingsKey({ a: { x: null, y: [2, 1] }, b: 1 }));
    expect(settingsKey({ k1: 0.9, b: 0.4 })).not.toBe(settingsKey({ k1: 0.9, b: 0.5 }));
    expect(settingsKey({ a: { y: [2, 1] } })).not.toBe(settingsKey({ a: { y: [1, 2] } }));
  });

  it('leaves undefined fields out', () => {
    expect(settingsKey({ a: undefined, b: [1, { c: 2, d: undefined }] })).toBe('{"b":[1,{"c":2}]}');
  });

  // Array-index-like keys ("0") are left out: JavaScript objects put them first whatever the insertion
  // order, so no JSON.stringify form sorts them; no settings object has such keys.
  const settingsValue = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true }), fc.string(), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(fc.string().filter((key) => !/^(0|[1-9]\d*)$/.test(key)), tie('value'), { maxKeys: 4 }),
  })).value;

  it('property: on plain JSON it is JSON.stringify of the key-sorted value (keys stored with that form stay valid)', () => {
    fc.assert(
      fc.property(settingsValue, (value) => {
        expect(settingsKey(value)).toBe(JSON.stringify(sortedKeys(value)));
      }),
      { numRuns: 300 },
    );
  });
});

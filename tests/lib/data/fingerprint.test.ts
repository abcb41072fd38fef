import { expect, it } from 'vitest';
import { Fingerprint, fnv1a } from '../../../src/lib/data/fingerprint.ts';

// FNV-1a 32-bit (http://www.isthe.com/chongo/tech/comp/fnv/): addUnits mixes 16-bit units exactly as add mixes
// the string of those code units, so vector fingerprints (vector-file.ts) hash the values' bits without strings.

it('addUnits gives the hash of the string of the same code units', () => {
  const units = Uint16Array.from([0x41, 0xd83d, 0xde00, 0, 0xffff, 0x7f]);
  const viaString = new Fingerprint().add('id').add(String.fromCharCode(...units)).hex();
  expect(new Fingerprint().add('id').addUnits(units).hex()).toBe(viaString);
  expect(new Fingerprint().addUnits(new Uint16Array(0)).hex()).toBe(fnv1a(''));
});

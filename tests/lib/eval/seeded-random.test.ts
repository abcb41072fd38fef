import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../src/lib/eval/seeded-random.ts';

describe('SeededRandom (xoshiro128**)', () => {
  it('produces the reference C implementation’s outputs from state {1, 2, 3, 4}', () => {
    // Values printed by the reference xoshiro128** 1.1 C code (prng.di.unimi.it) compiled with gcc.
    const random = SeededRandom.fromState([1, 2, 3, 4]);
    expect(Array.from({ length: 6 }, () => random.nextUint32())).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  });

  it('repeats a sequence for a seed and changes it with the seed', () => {
    const draw = (seed: number) => {
      const random = new SeededRandom(seed);
      return Array.from({ length: 8 }, () => random.nextUint32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('gives fair bits in every position (the Fisher test takes 32 coin flips from one draw)', () => {
    const random = new SeededRandom(7);
    const ones = new Array<number>(32).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const word = random.nextUint32();
      for (let bit = 0; bit < 32; bit++) ones[bit]! += (word >>> bit) & 1;
    }
    // Binomial(100000, 1/2): sd ≈ 158, so ±800 is 5 sd.
    for (const count of ones) expect(Math.abs(count - 50_000)).toBeLessThan(800);
  });
});

/**
 * A small seeded pseudo-random generator so randomized significance tests give the same p-value on every
 * run, in every browser and in Node: xoshiro128** 1.1 (Blackman & Vigna, https://prng.di.unimi.it/),
 * its 128-bit state filled from the seed by SplitMix32. Not cryptographic.
 */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number) {
    let x = seed >>> 0;
    const splitmix32 = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = splitmix32();
    this.s1 = splitmix32();
    this.s2 = splitmix32();
    this.s3 = splitmix32();
  }

  /** A generator started from an explicit state (as in the reference C code), for test vectors. */
  static fromState(state: readonly [number, number, number, number]): SeededRandom {
    const random = new SeededRandom(0);
    [random.s0, random.s1, random.s2, random.s3] = state.map((word) => word >>> 0) as [number, number, number, number];
    return random;
  }

  /** Next 32 random bits as an unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform in [0, 1) with 32 bits of resolution. */
  nextFloat(): number {
    return this.nextUint32() / 0x100000000;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * The Java container orders of src/lib/prf/java-hash-order.ts on cases whose Java results are known
 * (String.hashCode values from the JDK documentation and well-known collisions); the full check against
 * the JVM is tests/lib/prf/rm3-java-order.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FastutilFloatMap, javaHashSetOrder, javaStringHash } from '../../../src/lib/prf/java-hash-order.ts';

describe('Java hash orders', () => {
  it('String.hashCode', () => {
    expect(javaStringHash('')).toBe(0);
    expect(javaStringHash('a')).toBe(97);
    expect(javaStringHash('hello')).toBe(99162322);
    // "Aa" and "BB" collide in Java: 65·31 + 97 = 66·31 + 66 = 2112.
    expect(javaStringHash('Aa')).toBe(2112);
    expect(javaStringHash('BB')).toBe(2112);
    // Overflow wraps to a negative int.
    expect(javaStringHash('polygenelubricants')).toBe(-2147483648);
  });

  it('HashSet iterates by bucket, colliding keys in insertion order', () => {
    // Buckets of a 16-slot table: a 97 & 15 = 1, b 2, c 3.
    expect(javaHashSetOrder(['c', 'a', 'b', 'a'])).toEqual(['a', 'b', 'c']);
    expect(javaHashSetOrder(['BB', 'Aa'])).toEqual(['BB', 'Aa']);
    expect(javaHashSetOrder(['Aa', 'BB'])).toEqual(['Aa', 'BB']);
  });

  it('fastutil map keeps every entry through rehashes and updates in place', () => {
    const map = new FastutilFloatMap();
    const keys = Array.from({ length: 200 }, (_, i) => `term${i}`);
    keys.forEach((key, i) => map.set(key, i));
    map.set('term5', 0.5);
    expect(map.size).toBe(200);
    expect(new Set(map.keysInOrder())).toEqual(new Set(keys));
    expect(map.get('term5')).toBe(0.5);
    expect(map.get('term199')).toBe(199);
    expect(map.get('absent')).toBeUndefined();
  });
});

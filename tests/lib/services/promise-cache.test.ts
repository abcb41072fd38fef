import { expect, test } from 'vitest';
import { PromiseCache } from '../../../src/lib/services/promise-cache.ts';

test('one promise per key; a rejected one is forgotten, so the next ask makes it again', async () => {
  const cache = new PromiseCache<string, number>();
  let made = 0;
  const ok = () => Promise.resolve(++made);
  expect(await cache.get('a', ok)).toBe(1);
  expect(await cache.get('a', ok)).toBe(1);
  await expect(cache.get('b', () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
  expect(await cache.get('b', ok)).toBe(2);
  cache.delete('a');
  expect(await cache.get('a', ok)).toBe(3);
});

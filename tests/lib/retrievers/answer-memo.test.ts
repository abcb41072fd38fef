import { describe, expect, it } from 'vitest';
import { AnswerMemo } from '../../../src/lib/retrievers/answer-memo.ts';

describe('AnswerMemo', () => {
  it('answers a key from memory, keeps the latest `capacity` by use, and counts what it computed', async () => {
    const memo = new AnswerMemo(2);
    const asked: string[] = [];
    const get = (key: string) => memo.get(key, async () => (asked.push(key), `answer ${key}`));
    expect(await get('a')).toBe('answer a');
    await get('b');
    await get('a'); // a is now the most recently used
    await get('c'); // evicts b
    await get('a');
    await get('b');
    expect(asked).toEqual(['a', 'b', 'c', 'b']);
    expect(memo.computed).toBe(4);
  });

  it('forgets a failed answer, so asking again computes again', async () => {
    const memo = new AnswerMemo(4);
    await expect(memo.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memo.get('k', async () => 'up')).toBe('up');
  });

  it('forgets the answers whose keys start with a prefix', async () => {
    const memo = new AnswerMemo(4);
    await memo.get('c1@x', async () => 1);
    await memo.get('c2@x', async () => 2);
    memo.forgetPrefix('c1@');
    expect(await memo.get('c1@x', async () => 10)).toBe(10);
    expect(await memo.get('c2@x', async () => 20)).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { ScanTurns } from '../../workers/scan-turns.ts';

describe('ScanTurns', () => {
  it('runs searches one at a time in the order taken, and a failed one does not stop the next', async () => {
    const turns = new ScanTurns();
    const log: string[] = [];
    const search = (name: string, fail = false) =>
      turns.take(async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${name}`);
        if (fail) throw new Error(`${name} failed`);
        return name;
      });
    const results = await Promise.allSettled([search('a'), search('b', true), search('c')]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('work that arrived while a search ran (a scoring call) runs before the next search starts', async () => {
    const turns = new ScanTurns();
    const log: string[] = [];
    const first = turns.take(async () => {
      log.push('search 1');
      // A message arrives during the scan: its task is queued behind it.
      setTimeout(() => log.push('scoring'), 0);
    });
    const second = turns.take(async () => void log.push('search 2'));
    await Promise.all([first, second]);
    expect(log).toEqual(['search 1', 'scoring', 'search 2']);
  });
});

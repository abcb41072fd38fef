import { describe, expect, it } from 'vitest';
import { judgedQueries } from '../../../src/lib/data/beir.ts';
import type { Qrels, Query } from '../../../src/lib/types.ts';

describe('judgedQueries', () => {
  it('keeps the queries judged in the split (any grade), in queries-file order', () => {
    const queries = new Map<string, Query>(['q1', 'q2', 'q3'].map((id) => [id, { id, text: id }]));
    const test: Qrels = new Map([['q1', new Map([['d1', 1], ['d2', 0]])]]);
    const train: Qrels = new Map([['q9', new Map([['d2', 1]])], ['q3', new Map([['d7', 0]])], ['q2', new Map([['d2', 1]])]]);
    expect(judgedQueries(queries, test).map((q) => q.id)).toEqual(['q1']);
    expect(judgedQueries(queries, train).map((q) => q.id)).toEqual(['q2', 'q3']);
  });
});

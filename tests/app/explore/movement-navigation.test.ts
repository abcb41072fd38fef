import { describe, expect, it } from 'vitest';
import { movementLabel, movementOf, rankMap } from '../../../src/app/explore/movement.ts';
import { randomQuery, stepQuery } from '../../../src/app/explore/query-navigation.ts';

describe('movement against the first column', () => {
  const baseline = rankMap(['a', 'b', 'c', 'd']);
  it('says up, down, same or new', () => {
    expect(movementLabel(movementOf(baseline, 'd', 1))).toBe('↑3');
    expect(movementLabel(movementOf(baseline, 'a', 6))).toBe('↓5');
    expect(movementLabel(movementOf(baseline, 'b', 2))).toBe('=');
    expect(movementLabel(movementOf(baseline, 'z', 1))).toBe('new');
  });
});

describe('query navigation', () => {
  const ids = ['q1', 'q2', 'q3'];
  it('steps with wrap-around, and from no query to the first or last', () => {
    expect(stepQuery(ids, 'q1', 1)).toBe('q2');
    expect(stepQuery(ids, 'q3', 1)).toBe('q1');
    expect(stepQuery(ids, 'q1', -1)).toBe('q3');
    expect(stepQuery(ids, null, 1)).toBe('q1');
    expect(stepQuery(ids, 'gone', -1)).toBe('q3');
    expect(stepQuery([], 'q1', 1)).toBeUndefined();
  });
  it('picks a random query other than the current one', () => {
    expect(randomQuery(ids, 'q1', () => 0)).toBe('q2');
    expect(randomQuery(ids, 'q1', () => 0.99)).toBe('q3');
    expect(randomQuery(['q1'], 'q1', () => 0.5)).toBe('q1');
    expect(randomQuery([], null)).toBeUndefined();
  });
});

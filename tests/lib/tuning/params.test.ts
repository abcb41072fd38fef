import { describe, expect, it } from 'vitest';
import { defaultRetriever } from '../../../src/lib/retrievers/config.ts';
import { GridError, parseGridAxis } from '../../../src/lib/tuning/grid.ts';
import { checkAxes, paramValue, tunableParams, withParams } from '../../../src/lib/tuning/params.ts';
import { checkTuningSplit, SplitError } from '../../../src/lib/tuning/split-guard.ts';

describe('tuning parameters', () => {
  it('puts a point into a copy of the configuration', () => {
    const convex = defaultRetriever('convex');
    const tuned = withParams(convex, { alpha: 0.3, k1: 1.2, b: 0.75 });
    expect(tuned).toMatchObject({ kind: 'convex', alpha: 0.3, bm25: { k1: 1.2, b: 0.75 } });
    expect(convex).toEqual(defaultRetriever('convex'));
    expect(withParams(defaultRetriever('rm3'), { 'fb-terms': 20, 'fb-docs': 5, 'orig-weight': 0.7 })).toMatchObject({ fbTerms: 20, fbDocs: 5, originalQueryWeight: 0.7 });
    expect(withParams(defaultRetriever('ledr'), { k: 100 })).toMatchObject({ kind: 'ledr', k: 100 });
  });

  it('reads the starting values from the configuration', () => {
    expect(paramValue(defaultRetriever('rrf'), 'k')).toBe(60);
    expect(paramValue(defaultRetriever('bm25'), 'b')).toBe(0.4);
  });

  it('refuses a parameter the retriever lacks, and values out of range', () => {
    expect(tunableParams('bm25')).toEqual(['k1', 'b']);
    expect(() => checkAxes('bm25', [parseGridAxis('alpha=0:1:0.1')])).toThrow(/alpha is not a parameter of bm25 \(it has k1, b\)/);
    expect(() => checkAxes('convex', [parseGridAxis('alpha=0:2:0.5')])).toThrow(GridError);
    expect(() => checkAxes('rm3', [parseGridAxis('fb-terms=1:3:0.5')])).toThrow(/expected an integer/);
    expect(() => checkAxes('run', [parseGridAxis('k=1')])).toThrow(/has none to tune/);
  });
});

describe('the evaluated split', () => {
  it('is refused as the tuning split', () => {
    expect(() => checkTuningSplit('test', 'test')).toThrow(SplitError);
    expect(() => checkTuningSplit('train', 'test')).not.toThrow();
  });
});

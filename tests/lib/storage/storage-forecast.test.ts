import { describe, expect, it } from 'vitest';
import {
  corpusThatFits,
  forecastStorage,
  forecastWarning,
  REST_PER_GZIP_BYTE,
  STORED_PER_CORPUS_BYTE,
  STORED_PER_GZIP_BYTE,
  storedEstimate,
  VECTOR_BYTES_PER_DOC,
} from '../../../src/lib/storage/storage-forecast.ts';

const MB = 1024 * 1024;

describe('storage forecast', () => {
  it('estimates per corpus byte, per gzip byte, and per document when the count is known', () => {
    expect(storedEstimate({ bytes: 100 * MB, gzip: false })).toBeCloseTo(100 * MB * STORED_PER_CORPUS_BYTE);
    expect(storedEstimate({ bytes: 10 * MB, gzip: true })).toBeCloseTo(10 * MB * STORED_PER_GZIP_BYTE);
    expect(storedEstimate({ bytes: 10 * MB, gzip: true, docs: 500_000 })).toBeCloseTo(10 * MB * REST_PER_GZIP_BYTE + 500_000 * VECTOR_BYTES_PER_DOC);
  });

  it('what fits is the inverse of the estimate', () => {
    expect(storedEstimate({ bytes: corpusThatFits(50 * MB, false), gzip: false })).toBeCloseTo(50 * MB);
    expect(storedEstimate({ bytes: corpusThatFits(50 * MB, true), gzip: true })).toBeCloseTo(50 * MB);
    expect(corpusThatFits(-5, false)).toBe(0);
  });

  it('warns with the file, the estimate, the room left and what would fit; says nothing when it fits or nothing is known', () => {
    const size = { bytes: 800 * MB, gzip: false };
    const tight = forecastStorage(size, { usage: 100 * MB, quota: 400 * MB }, undefined);
    expect(tight.overQuota).toBe(true);
    expect(tight.freeBytes).toBe(300 * MB);
    const text = forecastWarning('corpus.jsonl', size, tight)!;
    expect(text).toContain(`corpus.jsonl (800 MB) will take about ${Math.round(tight.storedBytes / MB)} MB stored (an estimate)`);
    expect(text).toContain(`store only 300 MB more: a corpus of about ${Math.round(corpusThatFits(300 * MB, false) / MB)} MB would fit`);
    expect(forecastWarning('corpus.jsonl', size, forecastStorage(size, { usage: 0, quota: 10_000 * MB }, 8))).toBeUndefined();
    expect(forecastWarning('corpus.jsonl', size, forecastStorage(size, undefined, undefined))).toBeUndefined();
  });

  it('warns when the tab would need more than half the device memory', () => {
    const size = { bytes: 800 * MB, gzip: false };
    const forecast = forecastStorage(size, undefined, 2);
    expect(forecast.overMemory).toBe(true);
    expect(forecastWarning('corpus.jsonl', size, forecast)).toMatch(/corpus\.jsonl may need about [\d.]+ GB of memory .* \(1\.0 GB\): close other tabs/);
    expect(forecastStorage(size, undefined, 8).overMemory).toBe(false);
  });
});

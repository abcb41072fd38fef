/**
 * Parity with Lucene 8.7 BM25 (reference: shared/reference/scifact-test.lucene-bm25-flat.top100.run,
 * Lucene 8.7 BM25 flat, k1 0.9, b 0.4, top 100 per SciFact test query, hits whose id equals the query id
 * removed). Documents and queries are Lucene's own EnglishAnalyzer tokens
 * (scifact-{corpus,queries}.lucene-english-tokens.jsonl.gz), so this tests BM25 alone, not the analyzer.
 */
import { createReadStream } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readLines } from '../../../src/lib/data/lines.ts';
import type { AnalyzedDoc, Bm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { buildBm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { explainBm25 } from '../../../src/lib/bm25/bm25-explain.ts';
import type { Hit } from '../../../src/lib/types.ts';
import { shared } from '../../shared-dir.ts';

interface RefHit {
  docId: string;
  /** The score exactly as Lucene printed it (6 decimals). */
  printed: string;
}

async function* lines(path: string): AsyncGenerator<string> {
  for await (const line of readLines(createReadStream(path), { file: path })) {
    if (line.text !== '') yield line.text;
  }
}

async function readTokens(path: string): Promise<AnalyzedDoc[]> {
  const docs: AnalyzedDoc[] = [];
  for await (const text of lines(path)) {
    const { _id, tokens } = JSON.parse(text) as { _id: string; tokens: string[] };
    docs.push({ id: _id, terms: tokens });
  }
  return docs;
}

async function readRun(path: string): Promise<Map<string, RefHit[]>> {
  const run = new Map<string, RefHit[]>();
  for await (const text of lines(path)) {
    const [queryId, , docId, , printed] = text.split(/\s+/);
    if (queryId === undefined || docId === undefined || printed === undefined) throw new Error(`bad run line: ${text}`);
    const hits = run.get(queryId) ?? [];
    hits.push({ docId, printed });
    run.set(queryId, hits);
  }
  return run;
}

async function readTestQueryIds(path: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const text of lines(path)) {
    const queryId = text.split('\t')[0]!;
    if (queryId !== 'query-id') ids.add(queryId);
  }
  return ids;
}

const ids = (hits: readonly { docId: string }[]) => hits.map((hit) => hit.docId).join(' ');

describe('BM25 vs Lucene 8.7 BM25 flat on SciFact test (scifact-test.lucene-bm25-flat.top100.run)', () => {
  let index: Bm25Index;
  let queries: Map<string, AnalyzedDoc>;
  let reference: Map<string, RefHit[]>;
  let testIds: Set<string>;
  const ours = new Map<string, Hit[]>();

  beforeAll(async () => {
    const corpus = await readTokens(shared('reference', 'scifact-corpus.lucene-english-tokens.jsonl.gz'));
    const queryTokens = await readTokens(shared('reference', 'scifact-queries.lucene-english-tokens.jsonl.gz'));
    queries = new Map(queryTokens.map((query) => [query.id, query]));
    reference = await readRun(shared('reference', 'scifact-test.lucene-bm25-flat.top100.run'));
    testIds = await readTestQueryIds(shared('beir', 'scifact', 'qrels', 'test.tsv'));

    const indexStart = performance.now();
    index = buildBm25Index(corpus);
    const indexMs = performance.now() - indexStart;

    const searchStart = performance.now();
    for (const queryId of testIds) {
      const query = queries.get(queryId);
      if (query === undefined) throw new Error(`test query ${queryId} has no tokens`);
      ours.set(queryId, searchBm25(index, { id: queryId, terms: query.terms }, { k: 100 }));
    }
    const searchMs = performance.now() - searchStart;
    console.log(
      `BM25 index: ${corpus.length} docs, ${index.terms.length} terms, ${index.postingsDocs.length} postings in ` +
        `${indexMs.toFixed(1)} ms; ${testIds.size} queries in ${searchMs.toFixed(1)} ms ` +
        `(${(searchMs / testIds.size).toFixed(3)} ms/query)`,
    );
  });

  it('covers the 300 test queries of the qrels', () => {
    expect(testIds.size).toBe(300);
    expect([...reference.keys()].sort()).toEqual([...testIds].sort());
  });

  it('ranks the same documents in the same order, with the scores Lucene printed', () => {
    let sameTop10 = 0;
    let sameTop100 = 0;
    let compared = 0;
    let samePrinted = 0;
    let maxAbsDiff = 0;
    for (const [queryId, expected] of reference) {
      const actual = ours.get(queryId)!;
      if (ids(actual.slice(0, 10)) === ids(expected.slice(0, 10))) sameTop10 += 1;
      if (ids(actual) === ids(expected)) sameTop100 += 1;
      const scores = new Map(actual.map((hit) => [hit.docId, hit.score]));
      for (const { docId, printed } of expected) {
        const score = scores.get(docId);
        if (score === undefined) continue;
        compared += 1;
        if (score.toFixed(6) === printed) samePrinted += 1;
        maxAbsDiff = Math.max(maxAbsDiff, Math.abs(score - Number(printed)));
      }
    }
    console.log(
      `Lucene parity: top-10 identical for ${sameTop10}/${reference.size} queries, top-100 for ` +
        `${sameTop100}/${reference.size}; ${samePrinted}/${compared} scores print identically (%.6f); ` +
        `max |score − printed| = ${maxAbsDiff.toExponential(3)}`,
    );
    expect(sameTop10).toBe(300);
    expect(sameTop100).toBe(300);
    expect(samePrinted).toBe(compared);
    // A float printed with 6 decimals is off by at most half a unit of the last decimal.
    expect(maxAbsDiff).toBeLessThanOrEqual(5e-7 + 1e-12);
  });

  it('explains each hit with the score the search gave it', () => {
    for (const queryId of [...testIds].slice(0, 20)) {
      const query = { id: queryId, terms: queries.get(queryId)!.terms };
      for (const hit of ours.get(queryId)!.slice(0, 10)) {
        const explanation = explainBm25(index, query, hit.docId);
        expect(explanation.score).toBe(hit.score);
        const sum = explanation.terms.reduce((total, term) => total + term.contribution, 0);
        expect(Math.fround(sum)).toBe(hit.score);
      }
    }
  });
});

/**
 * The `search` command with a user's arguments (in-process through runCli): on a hand-computed 3-document
 * dataset (the index of tests/lib/bm25/weighted-search.test.ts, words instead of letters), and on SciFact,
 * where a plain query prints exactly what the BM25 reference ranks.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/cli/dataset.ts';
import { englishAnalyzer } from '../../src/lib/analysis/english-analyzer.ts';
import { indexCorpus } from '../../src/lib/bm25/bm25-corpus.ts';
import { searchBm25 } from '../../src/lib/bm25/bm25-search.ts';
import { shared } from '../shared-dir.ts';
import { cli } from './run-cli.ts';



interface SearchJson {
  dataset: string;
  query: string;
  parsed: {
    canonical: string;
    terms: { term: string; weight: number; df: number; idf: number }[];
    dropped: { text: string; boosted: boolean; line: number; column: number }[];
    errors: { text: string; line: number; column: number; message: string }[];
  };
  hits: { rank: number; docId: string; score: number; title: string }[];
}

/**
 *   d1 = alpha beta, d2 = alpha gamma gamma, d3 = alpha beta delta delta, titles empty (the indexed text is
 *   title + " " + text; the EnglishAnalyzer keeps these words as they are); query "alpha^2 beta" + "+gamma^0.5": weights alpha 2, beta 1, gamma 0.5. As computed by
 *   hand in tests/lib/bm25/weighted-search.test.ts: d2 0.4787763, d1 0.4140823, d3 0.3648844.
 */
function tinyDataset(): string {
  const dir = tempDir('rp-search-');
  const docs = [
    { _id: 'd1', title: '', text: 'alpha beta' },
    { _id: 'd2', title: '', text: 'alpha gamma gamma' },
    { _id: 'd3', title: '', text: 'alpha beta delta delta' },
  ];
  writeFileSync(join(dir, 'corpus.jsonl'), docs.map((doc) => JSON.stringify(doc)).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), `${JSON.stringify({ _id: 'q1', text: 'alpha' })}\n`);
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\n');
  return dir;
}

describe('search command', () => {
  it('prints the hand-computed weighted ranking, the parsed query and its terms', async () => {
    const dataset = tinyDataset();
    const { stdout, stderr, code } = await cli(['search', '--dataset', dataset, '--query', 'alpha^2 beta\n+gamma^0.5', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as SearchJson;
    expect(report.parsed.canonical).toBe('+alpha^2 +beta +gamma^0.5');
    expect(report.parsed.terms.map(({ term, weight, df }) => [term, weight, df])).toEqual([
      ['alpha', 2, 3],
      ['beta', 1, 2],
      ['gamma', 0.5, 1],
    ]);
    expect(report.hits.map(({ rank, docId, title }) => [rank, docId, title])).toEqual([
      [1, 'd2', 'alpha gamma gamma'],
      [2, 'd1', 'alpha beta'],
      [3, 'd3', 'alpha beta delta delta'],
    ]);
    expect(report.hits[0]!.score).toBeCloseTo(0.4787763, 6);
    expect(report.hits[1]!.score).toBeCloseTo(0.4140823, 6);
    expect(report.hits[2]!.score).toBeCloseTo(0.3648844, 6);

    const text = await cli(['search', '--dataset', dataset, '--query', 'alpha^2 beta +gamma^0.5', '--top-k', '2']);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toContain('# parsed: +alpha^2 +beta +gamma^0.5');
    expect(lines.slice(-3)).toEqual(['rank\tdoc\tscore\ttitle', '1\td2\t0.4788\talpha gamma gamma', '2\td1\t0.4141\talpha beta']);
  });

  it('reports syntax errors with line and column on stderr and still searches the rest', async () => {
    const { stdout, stderr, code } = await cli(['search', '--dataset', tinyDataset(), '--query', 'the^2 beta\n  gamma^x', '--json']);
    expect(code).toBe(0);
    expect(stderr.split('\n')).toEqual([
      'query 1:1: note: "the^2" gives no term (the analyzer drops it); its boost is lost',
      'query 2:3: error: "^x" is not a boost: write digits with an optional fraction, such as ^2 or ^0.5; read as plain text',
      '',
    ]);
    const report = JSON.parse(stdout) as SearchJson;
    expect(report.parsed.terms.map((t) => t.term)).toEqual(['beta', 'gamma', 'x']);
    expect(report.hits.map((hit) => hit.docId)).toEqual(['d2', 'd1', 'd3']);
  });

  it('fails with a clear message on a missing option or dataset', async () => {
    const noQuery = await cli(['search', '--dataset', tinyDataset()]);
    expect(noQuery.code).not.toBe(0);
    expect(noQuery.stderr).toBe('error: --query "text" is required (try --help)\n');
    const noDataset = await cli(['search', '--dataset', 'no-such-dataset', '--query', 'x']);
    expect(noDataset.code).not.toBe(0);
    expect(noDataset.stderr).toMatch(/^error: dataset folder .*no-such-dataset not found\n$/);
    const badRetriever = await cli(['search', '--dataset', tinyDataset(), '--query', 'x', '--retriever', 'dense']);
    expect(badRetriever.stderr).toBe('error: --retriever dense: expected one of bm25, rm3, bo1, rerank, augmented\n');
  });

  it('finds a dataset by name under SHARED_DIR/beir and ranks a plain SciFact query as the BM25 reference does', async () => {
    const collection = await loadDataset(shared('beir', 'scifact'));
    const query = collection.queries.get('1')!;
    const analyzer = englishAnalyzer();
    const expected = searchBm25(indexCorpus(collection.docs, analyzer), { terms: analyzer.analyze(query.text) }, { k: 10 });
    const { stdout, code } = await cli(['search', '--dataset', 'scifact', '--query', query.text, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as SearchJson;
    expect(report.dataset).toBe('scifact');
    expect(report.hits.map(({ docId, score }) => ({ docId, score }))).toEqual(expected);
    expect(report.hits).toHaveLength(10);
  });
});

/**
 * Pseudo-relevance feedback and WordPiece BM25 from the command line (in-process through runCli):
 * `search --retriever rm3|bo1` prints the expanded query (hand-computed on a 5-document dataset for Bo1,
 * equal to the core's on SciFact for RM3), and `eval --retriever rm3|bo1` / `--analyzer wordpiece` print
 * the SciFact test figures of the README table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/cli/dataset.ts';
import { englishAnalyzer } from '../../src/lib/analysis/english-analyzer.ts';
import { indexCorpus } from '../../src/lib/bm25/bm25-corpus.ts';
import { bagOfTerms } from '../../src/lib/bm25/bm25-query.ts';
import { bm25FeedbackIndex } from '../../src/lib/prf/feedback-index.ts';
import { searchRm3 } from '../../src/lib/prf/rm3.ts';
import { shared } from '../shared-dir.ts';
import { cli } from './run-cli.ts';



/** The 5 documents of tests/lib/prf/bo1.test.ts, whose Bo1 expansion is worked out there. */
function solarDataset(): string {
  const dir = tempDir('rp-prf-');
  const docs = [
    ['d1', 'solar panel energy panel'],
    ['d2', 'solar energy storage'],
    ['d3', 'wind energy turbine'],
    ['d4', 'battery storage cells'],
    ['d5', 'garden flowers'],
  ];
  writeFileSync(join(dir, 'corpus.jsonl'), docs.map(([id, text]) => JSON.stringify({ _id: id, title: '', text })).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), `${JSON.stringify({ _id: 'q1', text: 'solar' })}\n`);
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td3\t1\n');
  return dir;
}

interface EvalJson {
  retriever: string;
  settings: Record<string, string | number>;
  metrics: Record<string, number>;
}

describe('search --retriever rm3|bo1', () => {
  it('bo1 prints the hand-computed expanded query and ranks with it', async () => {
    // Feedback d2, d1 (d2 is shorter); solar 1 + 1 = 2, energi 3.5081469 / 4.1001366 = 0.8556171 (tests/lib/prf/bo1.test.ts).
    const { stdout, code } = await cli(['search', '--dataset', solarDataset(), '--query', 'solar', '--retriever', 'bo1', '--fb-docs', '2']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toContain('# feedback documents: d2 d1');
    expect(lines).toContain('# expanded: +solar^2 +energi^0.85561705');
    expect(lines).toContain('#   solar                weight 2.000000  (query term)');
    expect(lines.slice(-3).map((line) => line.split('\t')[1])).toEqual(['d2', 'd1', 'd3']);
  });

  it('rm3 on SciFact prints, with --json, the expanded query of the core', async () => {
    const collection = await loadDataset(shared('beir', 'scifact'));
    const analyzer = englishAnalyzer();
    const index = indexCorpus(collection.docs, analyzer);
    const text = 'microRNA cancer';
    const expected = searchRm3(bm25FeedbackIndex(index), bagOfTerms(analyzer.analyze(text)), { k: 10, fbTerms: 5, originalQueryWeight: 0.7 });
    const { stdout, code } = await cli(['search', '--dataset', 'scifact', '--query', text, '--retriever', 'rm3', '--fb-terms', '5', '--orig-weight', '0.7', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { expanded: { terms: unknown; canonical: string }; feedbackDocIds: string[]; hits: { docId: string; score: number }[] };
    expect(report.expanded.terms).toEqual(expected.expanded);
    // cancer is in more than 10 % of the documents, so it keeps 0.7 · 0.5 only; microrna gets more.
    const tokens = report.expanded.canonical.split(' ');
    expect(tokens).toContain('+cancer^0.35');
    expect(tokens.some((token) => /^\+microrna\^0\.\d+$/.test(token))).toBe(true);
    expect(report.feedbackDocIds).toEqual(expected.feedbackDocIds);
    expect(report.hits.map(({ docId, score }) => ({ docId, score }))).toEqual(expected.hits);
  });

  it('refuses feedback options that do not apply', async () => {
    const bo1 = await cli(['search', '--dataset', solarDataset(), '--query', 'solar', '--retriever', 'bo1', '--orig-weight', '0.3']);
    expect(bo1.code).not.toBe(0);
    expect(bo1.stderr).toBe('error: --orig-weight applies to --retriever rm3 only\n');
    const bm25 = await cli(['eval', '--dataset', solarDataset(), '--fb-terms', '5']);
    expect(bm25.stderr).toBe('error: --fb-terms and --fb-docs apply to --retriever rm3 or bo1 (or ledr with --lexical rm3|bo1) only\n');
    const lexical = await cli(['eval', '--dataset', solarDataset(), '--retriever', 'dense', '--lexical', 'rm3']);
    expect(lexical.stderr).toBe('error: --lexical applies to --retriever ledr only\n');
    const bad = await cli(['eval', '--dataset', solarDataset(), '--retriever', 'rm3', '--orig-weight', '2']);
    expect(bad.stderr).toBe('error: --orig-weight 2: expected a number between 0 and 1\n');
  });
});

describe('eval on SciFact test: BM25+RM3, BM25+Bo1, WordPiece BM25, and LEDR over each', () => {
  const scifact = () => shared('beir', 'scifact');
  const figures = async (args: string[]) => {
    const { stdout, stderr, code } = await cli(['eval', '--dataset', scifact(), '--json', ...args]);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as EvalJson;
    const rounded = { ndcg_cut_10: report.metrics.ndcg_cut_10!.toFixed(4), recall_100: report.metrics.recall_100!.toFixed(4) };
    process.stdout.write(`SciFact test ${args.join(' ')}: nDCG@10 ${rounded.ndcg_cut_10}, R@100 ${rounded.recall_100}\n`);
    return { report, rounded };
  };

  // Measured by this implementation (no published reference for these runs: see the README); pinned so
  // that any change to the formulas, tie-breaking or tokenization shows here.
  it('rm3 with Anserini defaults', async () => {
    const { report, rounded } = await figures(['--retriever', 'rm3']);
    expect(report.settings).toMatchObject({ fbTerms: 10, fbDocs: 10, originalQueryWeight: 0.5 });
    expect(rounded).toEqual({ ndcg_cut_10: '0.6471', recall_100: '0.9113' });
  });

  it('bo1 with PyTerrier defaults', async () => {
    const { report, rounded } = await figures(['--retriever', 'bo1']);
    expect(report.settings).toMatchObject({ fbTerms: 10, fbDocs: 3 });
    expect(rounded).toEqual({ ndcg_cut_10: '0.6586', recall_100: '0.9287' });
  });

  it('LEDR over Bo1: the dense model scores the Bo1 top K', async () => {
    const { report, rounded } = await figures(['--retriever', 'ledr', '--lexical', 'bo1']);
    expect(report.settings).toMatchObject({ lexical: 'bo1', fbTerms: 10, fbDocs: 3, K: 1000 });
    expect(rounded).toEqual({ ndcg_cut_10: '0.6609', recall_100: '0.9287' });
  });

  it('BM25 over WordPiece tokens', async () => {
    const { report, rounded } = await figures(['--retriever', 'bm25', '--analyzer', 'wordpiece']);
    expect(report.settings).toMatchObject({ analyzer: 'wordpiece' });
    expect(rounded).toEqual({ ndcg_cut_10: '0.6718', recall_100: '0.9213' });
  });
});

/**
 * The `eval` command with a user's arguments (in-process through runCli) on the real BEIR SciFact test split.
 * Parity: Lucene 8.7 BM25 flat as published by Pyserini's BEIR regressions and measured in
 * shared/reference/REFERENCE.md with trec_eval 9.0.8 -c: nDCG@10 0.6789, R@100 0.9253, MAP@100 0.6398,
 * MRR 0.6506, P@10 0.0883.
 */
import { readFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shared } from '../shared-dir.ts';
import { cli } from './run-cli.ts';



interface EvalJson {
  dataset: string;
  split: string;
  retriever: string;
  queries: number;
  metrics: Record<string, number>;
  timings: Record<string, number>;
}

describe('eval --retriever bm25 on SciFact test (Pyserini bm25-flat / Lucene 8.7 reference)', () => {
  const scifact = () => shared('beir', 'scifact');

  it('prints the Pyserini figures with --json and writes a TREC run', async () => {
    const runOut = join(tempDir('rp-eval-'), 'bm25.run');
    const { stdout, code } = await cli(['eval', '--dataset', scifact(), '--split', 'test', '--retriever', 'bm25', '--run-out', runOut, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EvalJson;
    expect(report).toMatchObject({ dataset: 'scifact', split: 'test', retriever: 'bm25', queries: 300 });
    const rounded = Object.fromEntries(Object.entries(report.metrics).map(([name, value]) => [name, value.toFixed(4)]));
    expect(rounded).toEqual({
      ndcg_cut_10: '0.6789',
      recall_100: '0.9253',
      map_cut_100: '0.6398',
      recip_rank: '0.6506',
      P_10: '0.0883',
      // SciFact's qrels list relevant documents only, so the judged share of the top 10 equals P@10
      // (computed from the Lucene reference run with a separate script: 0.0883, Pyserini's micro-average too).
      judged_10: '0.0883',
    });
    expect(report.timings.index_ms).toBeGreaterThan(0);
    expect(report.timings.query_ms_mean).toBeGreaterThan(0);
    const lines = readFileSync(runOut, 'utf8').trimEnd().split('\n');
    // Up to 1,000 hits per query: fewer when fewer documents share a term with the query.
    const perQuery = new Map<string, number>();
    for (const line of lines) perQuery.set(line.split(' ')[0]!, (perQuery.get(line.split(' ')[0]!) ?? 0) + 1);
    expect(perQuery.size).toBe(300);
    expect(Math.max(...perQuery.values())).toBe(1000);
    expect(lines[0]).toMatch(/^1 Q0 10608397 1 6\.59882\d* bm25$/); // first line of the Lucene reference run
  });

  it('prints trec_eval lines and timings as text', async () => {
    const { stdout, code } = await cli(['eval', '--dataset', scifact(), '--retriever', 'bm25', '--k1', '1.2', '--b', '0.75']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ndcg_cut_10 {11}\tall\t0\.\d{4}$/m);
    expect(stdout).toMatch(/^index_ms {14}\t\d+$/m);
    expect(stdout).toMatch(/^judged_10 {13}\tall\t0\.\d{4}$/m);
    // Different parameters give a different (valid) ranking than Anserini's defaults.
    expect(stdout).not.toMatch(/^ndcg_cut_10 {11}\tall\t0\.6789$/m);
  });
});

describe('eval: bad arguments fail with one line and a non-zero exit', () => {
  it.each([
    [['eval'], /--dataset <path \| name> is required/],
    [['eval', '--dataset', '/nonexistent-dir'], /nonexistent-dir/],
    [['eval', '--dataset', '.', '--retriever', 'tfidf'], /--retriever tfidf: expected one of bm25, rm3, bo1, dense, ledr, rrf, convex, rerank/],
    [['eval', '--dataset', '.', '--k1', 'abc'], /--k1 abc: expected a number/],
    [['eval', '--dataset', '.', '--top-k', '0'], /--top-k 0: expected a positive integer/],
    [['eval', '--dataset', '.', '--bogus'], /Unknown option '--bogus'/],
    [['nope'], /unknown command "nope"/],
  ])('%j', async (args, message) => {
    const { stderr, code } = await cli(args);
    expect(code).not.toBe(0);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it('names the missing split', async () => {
    const { stderr, code } = await cli(['eval', '--dataset', shared('beir', 'scifact'), '--split', 'dev']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/qrels\/dev\.tsv not found \(splits in .*: test, train\)/);
  });
});

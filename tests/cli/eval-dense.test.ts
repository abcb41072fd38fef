/**
 * `eval` with the dense and fused retrievers on SciFact test, through the project's own GloVe SIF model
 * (built by `npm run models`). References, shared/reference/REFERENCE.md (trec_eval 9.0.8 -c):
 * SIF-weighted GloVe-100d 0.3054 / 0.6579; LEDR (SIF-GloVe cosine × Lucene BM25 over the BM25 top 1000)
 * 0.6788 / 0.9287. Our tokenization of the GloVe model differs slightly from the reference script's
 * (BERT pre-tokenizer, 2,048-token truncation), hence the tolerance of 0.005.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { shared } from '../shared-dir.ts';
import { cliStdout } from './run-cli.ts';
import { ensureModels } from '../lib/dense/models-fixture.ts';


async function evalJson(retriever: string, ...extra: string[]): Promise<{ metrics: Record<string, number>; timings: Record<string, number> }> {
  const stdout = await cliStdout(['eval', '--dataset', shared('beir', 'scifact'), '--retriever', retriever, '--json', ...extra]);
  return JSON.parse(stdout) as { metrics: Record<string, number>; timings: Record<string, number> };
}

beforeAll(() => {
  ensureModels('glove-100d-sif');
});

describe('eval with dense and fused retrievers on SciFact test (REFERENCE.md)', () => {
  it('dense (local/glove-100d-sif) lands on the SIF reference 0.3054 / 0.6579', async () => {
    const { metrics, timings } = await evalJson('dense', '--model', 'local/glove-100d-sif');
    expect(Math.abs(metrics.ndcg_cut_10! - 0.3054)).toBeLessThan(0.005);
    expect(Math.abs(metrics.recall_100! - 0.6579)).toBeLessThan(0.005);
    expect(timings.docs_per_s).toBeGreaterThan(0);
  });

  it('ledr lands on the LEDR reference 0.6788 / 0.9287', async () => {
    const { metrics } = await evalJson('ledr');
    expect(Math.abs(metrics.ndcg_cut_10! - 0.6788)).toBeLessThan(0.005);
    expect(Math.abs(metrics.recall_100! - 0.9287)).toBeLessThan(0.005);
  });

  it('rrf and convex fuse the same two runs into rankings between the two', async () => {
    const [rrf, convex, convexBm25Only] = await Promise.all([
      evalJson('rrf'),
      evalJson('convex', '--alpha', '0.5'),
      evalJson('convex', '--alpha', '1'),
    ]);
    // Fusing with a much weaker dense run lands between the two runs' nDCG@10 (0.3047 dense, 0.6789 BM25).
    for (const { metrics } of [rrf, convex]) {
      expect(metrics.ndcg_cut_10!).toBeGreaterThan(0.31);
      expect(metrics.ndcg_cut_10!).toBeLessThan(0.6789);
    }
    // alpha = 1 keeps only BM25's order: BM25's figures (Pyserini bm25-flat).
    expect(convexBm25Only.metrics.ndcg_cut_10!.toFixed(4)).toBe('0.6789');
  });
});

/**
 * `eval` and `search` with `--retriever rerank` and the project's tiny cross-encoder (offline), as a user
 * runs them. On a 4-document dataset the printed order and scores are the tiny model's formula of the token
 * ids (scripts/models/tiny-cross-encoder.ts) computed here; on SciFact, a re-ranking of the BM25 top 10 keeps
 * exactly those 10 documents, so its recall equals the first stage's recall@10 (the ceiling eval prints).
 */
import { AutoTokenizer, env } from '@huggingface/transformers';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { crossEncoderTokenWeight, CROSS_ALPHA, CROSS_BETA } from '../../scripts/models/tiny-cross-encoder.ts';
import { MODELS_DIR } from '../../src/cli/dense.ts';
import { ensureModels } from '../lib/dense/models-fixture.ts';
import { shared } from '../shared-dir.ts';
import { cli } from './run-cli.ts';



const DOCS = [
  { _id: 'd1', title: 'Cells', text: 'cancer cells divide' },
  { _id: 'd2', title: '', text: 'cells cells cells and cancer cancer growth' },
  { _id: 'd3', title: 'Weather', text: 'rain falls from clouds over the cells of a storm' },
  { _id: 'd4', title: '', text: 'nothing relevant about cancer' },
];
const QUERY = 'cancer cells';

function tinyDataset(): string {
  const dir = tempDir('rp-rerank-');
  writeFileSync(join(dir, 'corpus.jsonl'), DOCS.map((doc) => JSON.stringify(doc)).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), `${JSON.stringify({ _id: 'q1', text: QUERY })}\n`);
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td2\t1\n');
  return dir;
}

let ids: (text: string) => number[];

/** The tiny cross-encoder's logit of (query, title + " " + text), nothing cut. */
function expected(query: string, doc: { title: string; text: string }): number {
  const q = ids(query);
  const d = ids(`${doc.title} ${doc.text}`.trim());
  let score = 0;
  for (const id of d) score += crossEncoderTokenWeight(id) * (CROSS_ALPHA + q.filter((x) => x === id).length);
  for (const id of q) score -= CROSS_BETA * crossEncoderTokenWeight(id);
  return score;
}

beforeAll(async () => {
  ensureModels('tiny-cross-encoder');
  env.localModelPath = `${MODELS_DIR}/`;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  const tokenizer = (await AutoTokenizer.from_pretrained('local/tiny-cross-encoder')) as unknown as {
    encode(text: string, options: { add_special_tokens: boolean }): number[];
  };
  ids = (text) => tokenizer.encode(text, { add_special_tokens: false });
});

describe('search --retriever rerank', () => {
  it('prints the BM25 hits in the order of the hand-computed cross-encoder scores, with their BM25 ranks', async () => {
    const { stdout, code, stderr } = await cli(['search', '--dataset', tinyDataset(), '--query', QUERY, '--retriever', 'rerank', '--model', 'local/tiny-cross-encoder', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { retriever: string; hits: { rank: number; firstStageRank: number; docId: string; score: number }[] };
    expect(report.retriever).toBe('rerank');
    const want = DOCS.map((doc) => ({ docId: doc._id, score: expected(QUERY, doc) })).sort((a, b) => b.score - a.score);
    expect(report.hits.map((h) => h.docId)).toEqual(want.map((h) => h.docId));
    report.hits.forEach((hit, i) => expect(hit.score).toBe(Math.fround(want[i]!.score)));
    // BM25 ranks d1 (short, both words) above d2; the cross-encoder counts d2's repeats.
    const bm25 = await cli(['search', '--dataset', tinyDataset(), '--query', QUERY, '--json']);
    const bm25Order = (JSON.parse(bm25.stdout) as { hits: { docId: string }[] }).hits.map((h) => h.docId);
    for (const hit of report.hits) expect(bm25Order[hit.firstStageRank - 1]).toBe(hit.docId);
    expect(report.hits.map((h) => h.docId)).not.toEqual(bm25Order);
  });

  it('--depth limits the re-ranked BM25 hits', async () => {
    const { stdout } = await cli(['search', '--dataset', tinyDataset(), '--query', QUERY, '--retriever', 'rerank', '--model', 'local/tiny-cross-encoder', '--depth', '2', '--json']);
    const report = JSON.parse(stdout) as { hits: { firstStageRank: number }[] };
    expect(report.hits.map((h) => h.firstStageRank).sort()).toEqual([1, 2]);
  });
});

describe('eval --retriever rerank', () => {
  it('re-ranks the BM25 top 10 of SciFact: same documents, so recall equals the first stage’s recall@10', async () => {
    const { stdout, code, stderr } = await cli([
      'eval', '--dataset', shared('beir', 'scifact'), '--retriever', 'rerank', '--first-stage', 'bm25', '--depth', '10', '--model', 'local/tiny-cross-encoder', '--json',
    ]);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as {
      retriever: string;
      settings: Record<string, string | number>;
      metrics: Record<string, number>;
      first_stage: Record<string, number>;
      timings: Record<string, number>;
    };
    expect(report.retriever).toBe('rerank');
    expect(report.settings).toMatchObject({ first_stage: 'bm25', depth: 10, model: 'local/tiny-cross-encoder', max_length: 512 });
    expect(report.metrics.recall_100).toBeCloseTo(report.first_stage.recall_10!, 12);
    // A lexical-overlap toy re-orders the top 10 (BM25 alone: nDCG@10 0.6789).
    expect(report.metrics.ndcg_cut_10!.toFixed(4)).not.toBe('0.6789');
    expect(report.timings.rerank_ms_mean).toBeGreaterThan(0);
  });

  it('refuses an unknown first stage', async () => {
    const { code, stderr } = await cli(['eval', '--dataset', tinyDataset(), '--retriever', 'rerank', '--first-stage', 'tfidf']);
    expect(code).not.toBe(0);
    expect(stderr).toBe('error: --first-stage tfidf: expected one of bm25, rm3, bo1, dense, ledr, rrf, convex\n');
  });
});

/**
 * `eval --vectors … --query-vectors …` (src/cli/vector-files.ts): vectors made elsewhere, in each format the
 * page takes, ranked by the dense retrievers. The reference is a brute-force cosine top-k computed in this
 * test from the raw values it wrote (tests/lib/import/vector-fixtures.ts); its measures come from the
 * project's trec_eval-equal `evaluate` over that independent run. On SciFact test, the default GloVe model's
 * own vectors written as Pyserini's embeddings.jsonl measure what `eval --model local/glove-100d-sif` does
 * (reference: that command's figures, computed in the test).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textSource } from '../../src/lib/data/lines.ts';
import { readTrecRun } from '../../src/lib/data/trec.ts';
import { evaluate } from '../../src/lib/eval/evaluate.ts';
import type { Qrels, Run } from '../../src/lib/types.ts';
import { bruteForceCosine, npyVectors, parquetVectors, pyseriniJsonl, randomVectors } from '../lib/import/vector-fixtures.ts';
import { cli, cliStdout } from './run-cli.ts';
import { loadDataset } from '../../src/cli/dataset.ts';
import { loadNodeEmbedder, resolveNodeModel } from '../../src/cli/dense.ts';
import { passageText, queryText } from '../../src/lib/dense/embedding-text.ts';
import { ensureModels } from '../lib/dense/models-fixture.ts';
import { shared } from '../shared-dir.ts';

const WORDS = ['tide', 'moon', 'yeast', 'dough', 'glacier', 'valley', 'tea', 'leaf', 'river', 'stone', 'salt', 'wind'];
const DOCS = Array.from({ length: 200 }, (_, i) => ({ _id: `d${i}`, title: `T${i}`, text: `${WORDS[i % 12]} ${WORDS[(i * 7) % 12]} ${WORDS[(i * 5 + 3) % 12]}` }));
const QUERIES = Array.from({ length: 20 }, (_, i) => ({ _id: `q${i}`, text: `${WORDS[i % 12]} ${WORDS[(i + 4) % 12]} ${i}` }));
const DIM = 12;
const DOC_VECTORS = randomVectors(DOCS.length, DIM, 21);
const QUERY_VECTORS = randomVectors(QUERIES.length, DIM, 22);
const docIds = DOCS.map((doc) => doc._id);
const queryIds = QUERIES.map((query) => query._id);
const QRELS: Qrels = new Map(QUERIES.map((query, q) => [query._id, new Map([[`d${(q * 13) % 200}`, 1], [`d${(q * 29 + 7) % 200}`, 2], [`d${(q * 3 + 1) % 200}`, 1]])]));

let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'eval-vectors-'));
  mkdirSync(at('data/qrels'), { recursive: true });
  writeFileSync(at('data/corpus.jsonl'), DOCS.map((doc) => JSON.stringify(doc)).join('\n'));
  writeFileSync(at('data/queries.jsonl'), QUERIES.map((query) => JSON.stringify(query)).join('\n'));
  const qrelLines = [...QRELS].flatMap(([q, docs]) => [...docs].map(([d, grade]) => `${q}\t${d}\t${grade}`));
  writeFileSync(at('data/qrels/test.tsv'), ['query-id\tcorpus-id\tscore', ...qrelLines].join('\n'));
  writeFileSync(at('embeddings.jsonl'), pyseriniJsonl(docIds, DOC_VECTORS, (id) => `contents of ${id}`));
  writeFileSync(at('queries.jsonl'), pyseriniJsonl(queryIds, QUERY_VECTORS));
  writeFileSync(at('corpus.parquet'), parquetVectors(docIds, DOC_VECTORS, 64));
  writeFileSync(at('queries.npy'), npyVectors(QUERY_VECTORS));
  writeFileSync(at('queries.ids.txt'), queryIds.join('\n') + '\n');
  writeFileSync(at('corpus.npy'), npyVectors(DOC_VECTORS, '<f8'));
  writeFileSync(at('corpus-ids.txt'), docIds.join('\n'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MEASURES = ['ndcg_cut_10', 'recall_100', 'map_cut_100', 'recip_rank', 'P_10'] as const;

async function evalVectors(...extra: string[]) {
  const stdout = await cliStdout(['eval', '--dataset', at('data'), '--split', 'test', '--json', ...extra]);
  return JSON.parse(stdout) as { metrics: Record<string, number>; settings: Record<string, string | number> };
}

describe('eval with vectors from files', () => {
  it('dense: the run equals brute-force cosine top-k of the raw vectors, and so do its measures', async () => {
    const report = await evalVectors('--retriever', 'dense', '--vectors', at('embeddings.jsonl'), '--query-vectors', at('queries.jsonl'), '--run-out', at('run.txt'));
    const { run } = await readTrecRun(textSource(readFileSync(at('run.txt'), 'utf8')), { file: 'run.txt' });
    const expected: Run = new Map(QUERIES.map((query, q) => [query._id, bruteForceCosine(QUERY_VECTORS[q]!, docIds, DOC_VECTORS, 1000)]));
    for (const [queryId, hits] of expected) {
      const got = run.get(queryId)!;
      expect(got.map((hit) => hit.docId)).toEqual(hits.map((hit) => hit.docId));
      got.forEach((hit, i) => expect(hit.score).toBeCloseTo(hits[i]!.score, 5));
    }
    const reference = evaluate(QRELS, expected, { measures: ['ndcg_cut.10', 'recall.100', 'map_cut.100', 'recip_rank', 'P.10'], complete: true }).all;
    for (const measure of MEASURES) expect(report.metrics[measure]!.toFixed(4)).toBe(reference[measure]!.toFixed(4));
    expect(report.settings.model).toBe('embeddings.jsonl');
  });

  it('Parquet corpus vectors with .npy query vectors (ids beside it), and a float64 .npy with --ids, measure the same', async () => {
    const jsonl = await evalVectors('--retriever', 'dense', '--vectors', at('embeddings.jsonl'), '--query-vectors', at('queries.jsonl'));
    const parquet = await evalVectors('--retriever', 'dense', '--vectors', at('corpus.parquet'), '--query-vectors', at('queries.npy'));
    const npy = await evalVectors('--retriever', 'dense', '--vectors', at('corpus.npy'), '--ids', at('corpus-ids.txt'), '--query-vectors', at('queries.npy'));
    expect(parquet.metrics).toEqual(jsonl.metrics);
    expect(npy.metrics).toEqual(jsonl.metrics);
  });

  it('HNSW search and the fusions (LEDR, RRF, convex) rank from the imported vectors', async () => {
    const exact = await evalVectors('--retriever', 'dense', '--vectors', at('embeddings.jsonl'), '--query-vectors', at('queries.jsonl'));
    const hnsw = await evalVectors('--retriever', 'dense', '--search', 'hnsw', '--vectors', at('embeddings.jsonl'), '--query-vectors', at('queries.jsonl'));
    // 200 points: the graph search visits them all, so it finds exact search's ranking.
    expect(hnsw.metrics.ndcg_cut_10).toBeCloseTo(exact.metrics.ndcg_cut_10!, 4);
    for (const retriever of ['ledr', 'rrf', 'convex']) {
      const fused = await evalVectors('--retriever', retriever, '--vectors', at('embeddings.jsonl'), '--query-vectors', at('queries.jsonl'));
      expect(fused.settings.model).toBe('embeddings.jsonl');
      expect(Number.isFinite(fused.metrics.ndcg_cut_10)).toBe(true);
    }
  });

  it("wsum fuses the imported vectors' dense run with a TREC run (the README's round trip)", async () => {
    await cliStdout(['eval', '--dataset', at('data'), '--retriever', 'bm25', '--run-out', at('bm25.run')]);
    const dense = await evalVectors('--retriever', 'dense', '--vectors', at('embeddings.jsonl'), '--query-vectors', at('queries.jsonl'));
    const onlyDense = await evalVectors('--retriever', 'wsum', '--fuse', 'dense', '--fuse-run', at('bm25.run'), '--weights', '1,0', '--vectors', at('embeddings.jsonl'), '--query-vectors', at('queries.jsonl'));
    // Weight 0 on the BM25 run keeps the dense order (min-max normalization does not reorder).
    expect(onlyDense.metrics.ndcg_cut_10!.toFixed(4)).toBe(dense.metrics.ndcg_cut_10!.toFixed(4));
    const fused = await evalVectors('--retriever', 'wsum', '--fuse', 'dense', '--fuse-run', at('bm25.run'), '--weights', '0.5,0.5', '--vectors', at('embeddings.jsonl'), '--query-vectors', at('queries.jsonl'));
    expect(Number.isFinite(fused.metrics.ndcg_cut_10)).toBe(true);
  });

  it('tune takes them too: each point is what eval --vectors measures for it (convex, and wsum over a TREC run)', async () => {
    const files = ['--vectors', at('embeddings.jsonl'), '--query-vectors', at('queries.jsonl')];
    const tuned = JSON.parse(
      await cliStdout(['tune', '--dataset', at('data'), '--split', 'test', '--eval-split', 'dev', '--retriever', 'convex', '--grid', 'alpha=0,0.5,1', '--json', ...files]),
    ) as { points: Array<{ params: { alpha: number }; value: number }>; eval: string };
    expect(tuned.points.map((point) => point.params.alpha)).toEqual([0, 0.5, 1]);
    for (const point of tuned.points) {
      const evaluated = await evalVectors('--retriever', 'convex', '--alpha', String(point.params.alpha), ...files);
      expect(point.value.toFixed(4), `alpha ${point.params.alpha}`).toBe(evaluated.metrics.ndcg_cut_10!.toFixed(4));
    }
    // Alpha weighs BM25: alpha 0 is dense alone, the imported vectors (not a model).
    expect(tuned.points[0]!.value.toFixed(4)).toBe((await evalVectors('--retriever', 'dense', ...files)).metrics.ndcg_cut_10!.toFixed(4));
    expect(tuned.eval).toContain(`--vectors ${at('embeddings.jsonl')}`);
    await cliStdout(['eval', '--dataset', at('data'), '--retriever', 'bm25', '--run-out', at('bm25-tune.run')]);
    const wsum = JSON.parse(
      await cliStdout(['tune', '--dataset', at('data'), '--split', 'test', '--eval-split', 'dev', '--retriever', 'wsum', '--fuse', 'dense', '--fuse-run', at('bm25-tune.run'), '--step', '0.5', '--json', ...files]),
    ) as { points: Array<{ params: Record<string, number>; value: number }> };
    const denseOnly = wsum.points.find((point) => point.params['w1'] === 1)!;
    expect(denseOnly.value.toFixed(4)).toBe((await evalVectors('--retriever', 'dense', ...files)).metrics.ndcg_cut_10!.toFixed(4));
  });

  it('says which queries have no vector, and which ids are not in the dataset', async () => {
    writeFileSync(at('some-queries.jsonl'), pyseriniJsonl(queryIds.slice(0, 15), QUERY_VECTORS.slice(0, 15)));
    const missing = await cli(['eval', '--dataset', at('data'), '--retriever', 'dense', '--vectors', at('embeddings.jsonl'), '--query-vectors', at('some-queries.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`error: ${at('some-queries.jsonl')}: 5 of the 20 queries to rank have no vector (q15, q16, q17, …)\n`);
    writeFileSync(at('extra.jsonl'), pyseriniJsonl([...docIds, 'zz'], [...DOC_VECTORS, DOC_VECTORS[0]!]));
    const unknown = await cli(['eval', '--dataset', at('data'), '--retriever', 'dense', '--vectors', at('extra.jsonl'), '--query-vectors', at('queries.jsonl')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/\nerror: .*extra\.jsonl: 1 ids are not documents of .*: "zz"\n$/);
    const noQueries = await cli(['eval', '--dataset', at('data'), '--retriever', 'dense', '--vectors', at('embeddings.jsonl')]);
    expect(noQueries.stderr).toBe('error: --vectors needs --query-vectors: the queries must be in the same vector space\n');
  });
});

describe('the project\'s own model, written out as a Pyserini file and read back', () => {
  it('SciFact test: eval --vectors gives the figures of eval --model local/glove-100d-sif', async () => {
    ensureModels('glove-100d-sif');
    const scifact = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
    const embedder = await loadNodeEmbedder(resolveNodeModel('local/glove-100d-sif'));
    const queries = [...scifact.queries.values()];
    const docVectors = await embedder.embed(scifact.docs.map((doc) => passageText(doc, embedder.spec)));
    const queryVectors = await embedder.embed(queries.map((query) => queryText(query, embedder.spec)));
    await embedder.dispose();
    const rowOf = (m: typeof docVectors, i: number) => Array.from(m.data.subarray(i * m.dim, (i + 1) * m.dim));
    writeFileSync(at('scifact-docs.jsonl'), pyseriniJsonl(scifact.docs.map((doc) => doc.id), scifact.docs.map((_, i) => rowOf(docVectors, i))));
    writeFileSync(at('scifact-queries.jsonl'), pyseriniJsonl(queries.map((query) => query.id), queries.map((_, i) => rowOf(queryVectors, i))));
    const model = JSON.parse(await cliStdout(['eval', '--dataset', shared('beir', 'scifact'), '--retriever', 'dense', '--json'])) as { metrics: Record<string, number> };
    const files = JSON.parse(await cliStdout(['eval', '--dataset', shared('beir', 'scifact'), '--retriever', 'dense', '--vectors', at('scifact-docs.jsonl'), '--query-vectors', at('scifact-queries.jsonl'), '--json'])) as { metrics: Record<string, number> };
    for (const measure of MEASURES) expect(files.metrics[measure]!.toFixed(4)).toBe(model.metrics[measure]!.toFixed(4));
  }, 300_000);
});

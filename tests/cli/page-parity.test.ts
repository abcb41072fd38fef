/**
 * The CLI's run file and the dashboard's exported run are the same bytes, for every retriever kind the two
 * share but Re-rank: BM25, dense exact, dense HNSW, LEDR, RRF, convex, RM3 and Bo1, on SciFact test with the project's GloVe
 * static model. The page's side is the page's code in Node: RetrievalEngine over Bm25Service (the BM25
 * worker's work, on the WebAssembly kernel) and DenseCorpusService (the dense worker's work, HNSW on
 * hnswlib-wasm), with SciFact stored in fake-indexeddb; its run goes through what Evaluate stores and
 * exports (packRun, unpackRun, formatTrecRun tagged with the column's kind). The CLI's side is
 * `npm run -s cli -- eval … --run-out` (run in-process through runCli).
 */
import 'fake-indexeddb/auto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bm25AnalyzerName } from '../../src/lib/analysis/analyzers.ts';
import { Bm25Service } from '../../src/lib/services/bm25-service.ts';
import { judgedQueries } from '../../src/lib/data/beir.ts';
import { packRun, unpackRun } from '../../src/lib/data/packed-run.ts';
import { formatTrecRun } from '../../src/lib/data/trec.ts';
import type { Embedder } from '../../src/lib/dense/embedder.ts';
import { defaultRetriever, type RetrieverConfig } from '../../src/lib/retrievers/config.ts';
import { PlaygroundDatabase } from '../../src/lib/storage/db.ts';
import { putDocuments } from '../../src/lib/storage/documents.ts';
import type { Query } from '../../src/lib/types.ts';
import type { Bm25Backend, DenseBackend } from '../../src/app/engine/backends.ts';
import { DenseCorpusService } from '../../src/lib/services/dense-corpus-service.ts';
import { RetrievalEngine } from '../../src/app/engine/retrieval-engine.ts';
import { loadDataset } from '../../src/cli/dataset.ts';
import { loadNodeEmbedder, resolveNodeModel } from '../../src/cli/dense.ts';
import { FakeJobs, FakeRuns } from '../app/engine/fakes.ts';
import { kernelModule } from '../lib/bm25-wasm/fixtures.ts';
import { ensureModels } from '../lib/dense/models-fixture.ts';
import { shared } from '../shared-dir.ts';
import { cliStdout } from './run-cli.ts';

const C = 'beir/scifact';
const MODEL = 'local/glove-100d-sif';

let db: PlaygroundDatabase;
let engine: RetrievalEngine;
let embedder: Embedder;
let queries: Query[];
let out: string;

/** The BM25 worker's work (bm25.worker.ts) without the worker. */
function bm25Backend(service: Bm25Service): Bm25Backend {
  const request = (queries: Parameters<Bm25Backend['search']>[2]) =>
    queries.map(({ id, text, weighted }) => ({ ...(id === undefined ? {} : { id }), text, ...(weighted === undefined ? {} : { weighted }) }));
  return {
    open: (collectionId, analyzer, onProgress, signal) => service.openIndex({ collectionId, analyzer }, onProgress, signal),
    warm: () => {},
    search: async (collectionId, _analyzer: Bm25AnalyzerName, queries, params) => request(queries).map((query) => service.search(collectionId, query, params)),
    explain: async (collectionId, _analyzer, query, docId, params) => service.explain(collectionId, query, docId, params),
    searchPrf: async (collectionId, _analyzer, queries, prf, params) => service.searchPrfMany(collectionId, request(queries), prf, params),
  };
}

/** The dense worker's work (dense.worker.ts) for one model, without the worker. */
function denseBackend(service: DenseCorpusService): DenseBackend {
  return {
    open: async (collectionId, settings, onProgress, signal) => {
      const info = await service.open({ collectionId, search: settings.search, hnsw: settings.hnsw }, onProgress, signal);
      return { ...info, model: settings.model, device: 'cpu', dtype: settings.dtype };
    },
    warm: () => {},
    loadModel: () => {},
    search: (collectionId, settings, texts, k) => service.search(collectionId, texts, k, { search: settings.search, hnsw: settings.hnsw }),
    score: (collectionId, _settings, texts, candidates) => service.score(collectionId, texts, candidates),
  };
}

beforeAll(async () => {
  ensureModels('glove-100d-sif');
  const collection = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
  queries = judgedQueries(collection.queries, collection.qrels.get('test')!);
  db = new PlaygroundDatabase('page-parity-test');
  await db.open();
  await db.collections.put({
    id: C,
    name: 'SciFact',
    status: 'ready',
    source: { kind: 'local', detail: 'test' },
    docCount: collection.docs.length,
    queryCount: collection.queries.size,
    splits: ['test'],
    createdAt: 1,
    bytes: 0,
  });
  await putDocuments(db, C, collection.docs);
  embedder = await loadNodeEmbedder(resolveNodeModel(MODEL));
  engine = new RetrievalEngine({
    bm25: bm25Backend(new Bm25Service({ db, loadKernel: kernelModule, locks: null })),
    dense: denseBackend(new DenseCorpusService({ db, embedder, locks: null })),
    runs: new FakeRuns(),
    jobs: new FakeJobs(),
  });
  out = await mkdtemp(join(tmpdir(), 'page-parity-'));
}, 120_000);

afterAll(async () => {
  await embedder?.dispose();
  await db?.delete();
  if (out !== undefined) await rm(out, { recursive: true, force: true });
});

/** What Evaluate → Export run downloads for a column: its stored (packed) run as TREC text tagged with its kind. */
async function pageRun(retriever: RetrieverConfig): Promise<string> {
  const { run, missing } = await engine.rankQueries(C, retriever, queries, { chunkSize: 50 });
  expect(missing).toEqual([]);
  return formatTrecRun(unpackRun(packRun(run)), retriever.kind);
}

/** The CLI's run file for the same column. */
async function cliRun(name: string, ...args: string[]): Promise<string> {
  const file = join(out, `${name}.run`);
  await cliStdout(['eval', '--dataset', shared('beir', 'scifact'), '--split', 'test', '--run-out', file, '--json', ...args]);
  return readFile(file, 'utf8');
}

const dense = defaultRetriever('dense') as Extract<RetrieverConfig, { kind: 'dense' }>;

const CASES: Array<{ name: string; retriever: RetrieverConfig; args: string[] }> = [
  { name: 'bm25', retriever: defaultRetriever('bm25'), args: ['--retriever', 'bm25'] },
  { name: 'dense exact', retriever: dense, args: ['--retriever', 'dense', '--model', MODEL] },
  {
    name: 'dense HNSW',
    retriever: { kind: 'dense', dense: { ...dense.dense, search: 'hnsw' } },
    args: ['--retriever', 'dense', '--model', MODEL, '--search', 'hnsw'],
  },
  { name: 'ledr', retriever: defaultRetriever('ledr'), args: ['--retriever', 'ledr'] },
  { name: 'rrf', retriever: defaultRetriever('rrf'), args: ['--retriever', 'rrf'] },
  { name: 'convex', retriever: defaultRetriever('convex'), args: ['--retriever', 'convex'] },
  // Feedback runs in the BM25 worker on the WebAssembly kernel's index, in the CLI on the TypeScript one.
  { name: 'rm3', retriever: defaultRetriever('rm3'), args: ['--retriever', 'rm3'] },
  { name: 'bo1', retriever: defaultRetriever('bo1'), args: ['--retriever', 'bo1'] },
];

describe('the CLI run file equals the dashboard’s exported run (SciFact test, GloVe SIF)', () => {
  for (const { name, retriever, args } of CASES) {
    it(name, async () => {
      const [page, cli] = await Promise.all([pageRun(retriever), cliRun(name.replace(/\s/g, '-'), ...args)]);
      const lines = cli.split('\n').filter((line) => line !== '');
      // Not vacuous: every query ranked, with hits.
      expect(new Set(lines.map((line) => line.split(' ')[0])).size).toBe(queries.length);
      if (page !== cli) {
        // Name the first differing line rather than diffing two megabytes.
        const pageLines = page.split('\n');
        const at = pageLines.findIndex((line, i) => line !== cli.split('\n')[i]);
        expect({ line: at + 1, page: pageLines[at] }).toEqual({ line: at + 1, page: cli.split('\n')[at] });
      }
      expect(page).toBe(cli);
    }, 300_000);
  }
});

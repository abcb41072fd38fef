/**
 * `npm run bench:rerank [-- --json] [--queries N] [--depth 100] [--ledr-k 1000]`: per-query latency of
 * cross-encoder re-ranking against LEDR on SciFact test, in Node, as the CLI runs them.
 *
 *   LEDR:    BM25 top K (1,000) → embed the query (local/glove-100d-sif) → cosine of the K candidates against
 *            the corpus vectors embedded beforehand → product with BM25 (lexiconEnhancedDense).
 *   re-rank: BM25 top depth (100) → the cross-encoder on (query, title + " " + text) for each of them
 *            (local/tiny-cross-encoder, fp32 and q8, batch 16, no cache).
 *
 * The corpus embedding of LEDR is an index cost paid once (reported apart); a cross-encoder has no index, so
 * its whole cost is paid per query, which is the point of the comparison (LaPraDoR: LEDR is far cheaper than
 * re-ranking). The tiny model is a single lexical-overlap layer: a real MiniLM-L6 cross-encoder (6 layers,
 * 384 wide) costs far more per pair, so the ratio printed is a lower bound for real models.
 */
import { parseArgs } from 'node:util';
import { loadDataset } from '../src/cli/dataset.ts';
import { loadNodeEmbedder, resolveNodeModel } from '../src/cli/dense.ts';
import { loadNodeCrossEncoder, resolveNodeReranker } from '../src/cli/rerank.ts';
import { createAnalyzer } from '../src/lib/analysis/analyzers.ts';
import { analyzeQuery, indexCorpus } from '../src/lib/bm25/bm25-corpus.ts';
import { searchBm25 } from '../src/lib/bm25/bm25-search.ts';
import { passageText, queryText } from '../src/lib/dense/embedding-text.ts';
import { rowIndex, scoreCandidates } from '../src/lib/dense/exact-search.ts';
import { matrixRow } from '../src/lib/dense/vector-matrix.ts';
import { judgedQueries } from '../src/lib/data/beir.ts';
import { lexiconEnhancedDense } from '../src/lib/fusion/ledr.ts';
import { docScorerFor, rerank, rerankDocText } from '../src/lib/rerank/rerank.ts';
import { buildModels } from '../scripts/models/build-models.ts';
import { shared } from '../tests/shared-dir.ts';
import { writeBenchResult } from './results-file.ts';

interface Latency {
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
}

function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
  return { meanMs: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length), p50Ms: at(0.5), p95Ms: at(0.95) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      queries: { type: 'string', default: '300' },
      depth: { type: 'string', default: '100' },
      'ledr-k': { type: 'string', default: '1000' },
    },
  });
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const depth = Number(values.depth);
  const ledrK = Number(values['ledr-k']);
  buildModels({ only: ['glove-100d-sif', 'tiny-cross-encoder'] });
  const scifact = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
  const queries = judgedQueries(scifact.queries, scifact.qrels.get('test')!).slice(0, Number(values.queries));
  const docs = scifact.docs;
  const byId = new Map(docs.map((d) => [d.id, d]));
  const analyzer = createAnalyzer('english');
  const index = indexCorpus(docs, analyzer);
  const params = { k1: 0.9, b: 0.4 };
  log(`SciFact: ${docs.length} documents, ${queries.length} test queries; BM25 indexed`);

  // LEDR: the corpus vectors are its index, built once.
  const embedder = await loadNodeEmbedder(resolveNodeModel('local/glove-100d-sif'));
  const t0 = performance.now();
  const corpus = await embedder.embed(docs.map((d) => passageText(d, embedder.spec)));
  const corpusEmbedMs = performance.now() - t0;
  const rows = rowIndex(docs.map((d) => d.id));
  const ledrSamples: number[] = [];
  const bm25Samples: number[] = [];
  for (const [pass, query] of [...queries.slice(0, 5), ...queries].entries()) {
    const started = performance.now();
    const bm25 = searchBm25(index, analyzeQuery(query, analyzer), { k: ledrK, params, ignoreIdenticalIds: true });
    const bm25Done = performance.now();
    const vector = await embedder.embed([queryText(query, embedder.spec)]);
    const cosine = new Map(scoreCandidates(corpus, rows, matrixRow(vector, 0), bm25.map((h) => h.docId)).map((h) => [h.docId, h.score]));
    lexiconEnhancedDense(bm25, cosine, { k: ledrK, limit: 1000 });
    // The first five are warm-up.
    if (pass >= 5) {
      ledrSamples.push(performance.now() - started);
      bm25Samples.push(bm25Done - started);
    }
  }
  await embedder.dispose();
  const ledr = latency(ledrSamples);
  log(`LEDR: ${ledr.meanMs.toFixed(3)} ms per query (corpus embedded once in ${corpusEmbedMs.toFixed(0)} ms)`);

  const rerankRows: Array<{ dtype: 'fp32' | 'q8'; latency: Latency; pairsPerSecond: number }> = [];
  for (const dtype of ['fp32', 'q8'] as const) {
    const crossEncoder = await loadNodeCrossEncoder(resolveNodeReranker('local/tiny-cross-encoder'), { dtype, cache: false });
    const samples: number[] = [];
    let pairs = 0;
    for (const [pass, query] of [...queries.slice(0, 5), ...queries].entries()) {
      const started = performance.now();
      const first = searchBm25(index, analyzeQuery(query, analyzer), { k: depth, params, ignoreIdenticalIds: true });
      const out = await rerank(first, depth, docScorerFor(crossEncoder, query.text, (id) => rerankDocText(byId.get(id)!), { batchSize: 16 }));
      if (pass >= 5) {
        samples.push(performance.now() - started);
        pairs += out.length;
      }
    }
    await crossEncoder.dispose();
    const l = latency(samples);
    rerankRows.push({ dtype, latency: l, pairsPerSecond: pairs / (samples.reduce((a, b) => a + b, 0) / 1000) });
    log(`re-rank (${dtype}): ${l.meanMs.toFixed(1)} ms per query`);
  }

  const result = {
    dataset: 'scifact',
    queries: queries.length,
    depth,
    ledrK,
    bm25: latency(bm25Samples),
    ledr: { ...ledr, model: 'local/glove-100d-sif', corpusEmbedMs },
    rerank: rerankRows.map((row) => ({ model: 'local/tiny-cross-encoder', ...row, ratioVsLedr: row.latency.meanMs / ledr.meanMs })),
  };
  writeBenchResult({
    benchmark: 'rerank',
    partial: queries.length < 300,
    figures: [
      {
        name: `LEDR per query, BM25 top ${ledrK} × GloVe SIF cosine (SciFact test, Node)`,
        unit: 'ms',
        value: ledr.meanMs,
        peers: {
          [`BM25 top ${ledrK} alone`]: result.bm25.meanMs,
          ...Object.fromEntries(rerankRows.map((row) => [`re-rank BM25 top ${depth}, tiny cross-encoder ${row.dtype}`, row.latency.meanMs])),
        },
      },
    ],
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const print = (text: string) => process.stdout.write(`${text}\n`);
  print(`SciFact test, ${queries.length} queries, Node, warm; per-query latency including the BM25 search`);
  print('| method | ms/query mean | p50 | p95 | ÷ LEDR |');
  print('|---|---:|---:|---:|---:|');
  const line = (name: string, l: Latency) => print(`| ${name} | ${l.meanMs.toFixed(3)} | ${l.p50Ms.toFixed(3)} | ${l.p95Ms.toFixed(3)} | ${(l.meanMs / ledr.meanMs).toFixed(1)}× |`);
  line(`BM25 top ${ledrK} alone`, result.bm25);
  line(`LEDR (BM25 top ${ledrK} × GloVe SIF cosine)`, ledr);
  for (const row of rerankRows) line(`re-rank BM25 top ${depth}, tiny cross-encoder ${row.dtype} (${row.pairsPerSecond.toFixed(0)} pairs/s)`, row.latency);
  print(`LEDR's corpus embedding (once, not per query): ${corpusEmbedMs.toFixed(0)} ms`);
}

await main();

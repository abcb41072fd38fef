/**
 * `npm run bench:augment [-- --json] [--epochs 10] [--train-rows] [--lambda 0.1] [--lr 0.001] [--analyzer english]`:
 * learned BM25 query augmentation on SciFact in Node. Trains on the 809 train queries (a seeded tenth held
 * out for the per-epoch measure, as `train-augment` does by default), then ranks the 300 test queries with
 * plain BM25 and with the model, through the CLI's ranking (rankBatch over the TypeScript BM25 search):
 * nDCG@10, R@100, terms per query, and each query's search time against BM25's over the same index.
 * nDCG@10 is also split by whether a test query's relevant documents include one judged relevant to a
 * train query: a model can learn such documents' terms (a prior of the collection) without learning
 * anything about queries, and only the other test queries show what it learned of queries.
 */
import { parseArgs } from 'node:util';
import { loadAnalyzer, type CliAnalyzerName } from '../src/cli/analyzer.ts';
import { loadQueryEncoder, trainOnDataset } from '../src/cli/augment-model.ts';
import { loadDataset } from '../src/cli/dataset.ts';
import { retrieve, type RetrieverSettings } from '../src/cli/retrievers.ts';
import { indexCorpus } from '../src/lib/bm25/bm25-corpus.ts';
import { DEFAULT_TRAIN_SETTINGS } from '../src/lib/augment/train.ts';
import { judgedQueries } from '../src/lib/data/beir.ts';
import { evaluate } from '../src/lib/eval/evaluate.ts';
import type { Bm25AnalyzerName } from '../src/lib/analysis/analyzers.ts';
import { buildModels } from '../scripts/models/build-models.ts';
import { shared } from '../tests/shared-dir.ts';
import { writeBenchResult } from './results-file.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      epochs: { type: 'string', default: String(DEFAULT_TRAIN_SETTINGS.epochs) },
      lambda: { type: 'string', default: String(DEFAULT_TRAIN_SETTINGS.lambda) },
      lr: { type: 'string', default: String(DEFAULT_TRAIN_SETTINGS.lr) },
      'train-rows': { type: 'boolean', default: false },
      analyzer: { type: 'string', default: 'english' },
    },
  });
  const log = (message: string) => process.stderr.write(`${message}\n`);
  buildModels({ only: ['glove-100d-sif'] });
  const scifact = await loadDataset(shared('beir', 'scifact'), { splits: ['train', 'test'] });
  const analyzerName = values.analyzer as CliAnalyzerName;
  const analyzer = await loadAnalyzer(analyzerName);
  const bm25 = { k1: 0.9, b: 0.4, analyzer: analyzerName as Bm25AnalyzerName };
  const index = indexCorpus(scifact.docs, analyzer);
  const encoder = await loadQueryEncoder('local/glove-100d-sif', analyzer);
  const settings = { ...DEFAULT_TRAIN_SETTINGS, epochs: Number(values.epochs), lambda: Number(values.lambda), lr: Number(values.lr), trainRows: values['train-rows'] };
  const { model, result } = await trainOnDataset(
    { dataset: scifact, index, bm25, encoder, split: 'train', heldOutShare: 0.1, settings },
    { onEpoch: (r) => log(`epoch ${r.epoch}: loss ${r.loss.toFixed(4)}, held-out nDCG@10 ${r.heldOut?.ndcg_cut_10.toFixed(4)}, ${r.heldOut?.terms_per_query.toFixed(1)} terms/query, ${(r.ms / 1000).toFixed(1)} s`) },
  );
  log(`trained in ${(result.trainMs / 1000).toFixed(1)} s`);

  const qrels = scifact.qrels.get('test')!;
  const queries = judgedQueries(scifact.queries, qrels);
  const base: RetrieverSettings = {
    retriever: 'augmented',
    analyzer: analyzerName,
    bm25: { k1: 0.9, b: 0.4 },
    topK: 1000,
    ignoreIdenticalIds: true,
    model: 'local/glove-100d-sif',
    dtype: undefined,
    search: 'exact',
    ledrK: 1000,
    rrfK: 60,
    alpha: 0.5,
    normalization: 'min-max',
    augmenter: { model, path: 'bench', ref: { key: 'bench', name: 'bench', collection: scifact.name, split: 'train' } },
  };
  const augmented = await retrieve(scifact.docs, queries, base, () => {});
  const measures = (run: typeof augmented.run) => evaluate(qrels, run, { measures: ['ndcg_cut.10', 'recall.100'], complete: true }).all;
  const trainRelevant = new Set([...scifact.qrels.get('train')!.values()].flatMap((docs) => [...docs].filter(([, grade]) => grade > 0).map(([doc]) => doc)));
  const seen = (qid: string) => [...(qrels.get(qid) ?? [])].some(([doc, grade]) => grade > 0 && trainRelevant.has(doc));
  /** Mean nDCG@10 of the test queries whose relevant documents do (or do not) include a train query's. */
  const bySeen = (run: typeof augmented.run, wanted: boolean) => {
    const perQuery = evaluate(qrels, run, { measures: ['ndcg_cut.10'], complete: true }).queries.filter((q) => seen(q.qid) === wanted);
    return { queries: perQuery.length, ndcg_cut_10: perQuery.reduce((sum, q) => sum + q.values['ndcg_cut_10']!, 0) / Math.max(1, perQuery.length) };
  };
  const plain = await retrieve(scifact.docs, queries, { ...base, retriever: 'bm25' }, () => {});
  const figures = {
    train_queries: result.examples,
    held_out_queries: model.training.heldOut.kind === 'share' ? model.training.heldOut.queries : 0,
    epochs: settings.epochs,
    train_s: result.trainMs / 1000,
    epoch_s: result.history.map((r) => r.ms / 1000),
    held_out: result.history.map((r) => r.heldOut),
    held_out_bm25: result.baseline,
    test_bm25: measures(plain.run),
    test_augmented: measures(augmented.run),
    unseen_docs: { bm25: bySeen(plain.run, false), augmented: bySeen(augmented.run, false) },
    seen_docs: { bm25: bySeen(plain.run, true), augmented: bySeen(augmented.run, true) },
    ...augmented.efficiency!,
  };
  const name = `${analyzerName}, GloVe ${settings.trainRows ? 'rows trained' : 'frozen'}, λ ${settings.lambda}, lr ${settings.lr}`;
  writeBenchResult({
    benchmark: 'augment',
    note: `SciFact train (${result.examples} queries with a relevant document, a seeded tenth held out) → test (300), ${name}; Node; load average at the end in the file`,
    figures: [
      { name: `Training, ${settings.epochs} epochs on SciFact train (${name}), Node`, unit: 's', value: figures.train_s, goal: { max: 60 } },
      { name: `SciFact test nDCG@10, augmented (${name})`, unit: '', value: figures.test_augmented['ndcg_cut_10']!, peers: { BM25: figures.test_bm25['ndcg_cut_10']! } },
      {
        name: `SciFact test nDCG@10 of the ${figures.unseen_docs.augmented.queries} queries whose relevant documents no train query has, augmented (${name})`,
        unit: '',
        value: figures.unseen_docs.augmented.ndcg_cut_10,
        peers: { BM25: figures.unseen_docs.bm25.ndcg_cut_10 },
      },
      {
        name: `SciFact test nDCG@10 of the ${figures.seen_docs.augmented.queries} queries with a relevant document a train query has, augmented (${name})`,
        unit: '',
        value: figures.seen_docs.augmented.ndcg_cut_10,
        peers: { BM25: figures.seen_docs.bm25.ndcg_cut_10 },
      },
      { name: `SciFact test R@100, augmented (${name})`, unit: '', value: figures.test_augmented['recall_100']!, peers: { BM25: figures.test_bm25['recall_100']! } },
      { name: `Terms per query, augmented (${name})`, unit: 'terms', value: figures.terms_per_query },
      { name: `Search per query, augmented (${name}), TypeScript BM25`, unit: 'ms', value: figures.query_ms_mean, peers: { BM25: figures.bm25_query_ms_mean } },
      { name: `Weighted bag per query (encoder + a(q)), ${name}`, unit: 'ms', value: figures.augment_ms_mean },
    ],
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return;
  }
  const print = (text: string) => process.stdout.write(`${text}\n`);
  print(`SciFact train → test, ${name}`);
  print(`training: ${figures.train_queries} queries (${figures.held_out_queries} held out), ${settings.epochs} epochs in ${figures.train_s.toFixed(1)} s`);
  print(`test nDCG@10: BM25 ${figures.test_bm25['ndcg_cut_10']!.toFixed(4)}, augmented ${figures.test_augmented['ndcg_cut_10']!.toFixed(4)}`);
  print(`test nDCG@10 of ${figures.unseen_docs.bm25.queries} queries whose relevant documents no train query has: BM25 ${figures.unseen_docs.bm25.ndcg_cut_10.toFixed(4)}, augmented ${figures.unseen_docs.augmented.ndcg_cut_10.toFixed(4)}`);
  print(`test nDCG@10 of ${figures.seen_docs.bm25.queries} queries with a relevant document a train query has: BM25 ${figures.seen_docs.bm25.ndcg_cut_10.toFixed(4)}, augmented ${figures.seen_docs.augmented.ndcg_cut_10.toFixed(4)}`);
  print(`test R@100:   BM25 ${figures.test_bm25['recall_100']!.toFixed(4)}, augmented ${figures.test_augmented['recall_100']!.toFixed(4)}`);
  print(`terms per query ${figures.terms_per_query.toFixed(1)}; search ms per query: BM25 ${figures.bm25_query_ms_mean.toFixed(2)}, augmented ${figures.query_ms_mean.toFixed(2)} (+ ${figures.augment_ms_mean.toFixed(2)} to make the bag)`);
}

await main();

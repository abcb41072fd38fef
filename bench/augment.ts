/**
 * `npm run bench:augment [-- --json] [--only ROW,ROW] [--epochs 10] [--lambda 0.1] [--lr 0.001]`, or one
 * row of your own: `-- --collection scifact|starter|polish --analyzer english --encoder ID [--train-rows]`.
 * Learned BM25 query augmentation in Node, one row per collection, analyzer and encoder:
 *
 *   scifact-english-glove        SciFact train (a seeded tenth held out for the per-epoch measure, as
 *   scifact-english-glove-rows   `train-augment` does by default) → the 300 test queries; GloVe frozen or
 *   scifact-wordpiece-glove      its rows trained; English or WordPiece BM25 (the paper's "BM25 (Ours)")
 *   scifact-wordpiece-tiny-bert  the frozen tiny BERT: its weights are random, the row shows the path works
 *   starter-english-glove        the starter collection and manpages-pl (shared/reference/polish) judge one
 *   polish-polish-glove          split: a seeded share of it (HELD_OUT_SHARE) is held out and evaluated,
 *                                as the CLI does (src/lib/augment/splits.ts)
 *
 * Each row: plain BM25 and the model ranked through the CLI's ranking (rankBatch over the TypeScript BM25
 * search): nDCG@10, R@100, terms per query (BM25's: the query's distinct terms), each query's search time
 * against BM25's over the same index, the time to make the weighted bag, the training time, and the 1-minute
 * load average when training began and ended (the machine is shared). On SciFact, nDCG@10 is also split by
 * whether a test query's relevant documents include one judged relevant to a train query: a model can learn
 * such documents' terms (a prior of the collection) without learning anything about queries.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadAnalyzer, type CliAnalyzerName } from '../src/cli/analyzer.ts';
import { evaluableQueries, loadQueryEncoder, trainOnDataset } from '../src/cli/augment-model.ts';
import { loadDataset, type Dataset } from '../src/cli/dataset.ts';
import { retrieve, type RetrieverSettings } from '../src/cli/retrievers.ts';
import { indexCorpus } from '../src/lib/bm25/bm25-corpus.ts';
import type { Bm25Index } from '../src/lib/bm25/bm25-index.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../src/lib/augment/train.ts';
import { judgedQueries } from '../src/lib/data/beir.ts';
import { evaluate } from '../src/lib/eval/evaluate.ts';
import type { Bm25AnalyzerName } from '../src/lib/analysis/analyzers.ts';
import type { Analyzer } from '../src/lib/analysis/analyzer.ts';
import type { Qrels, Run } from '../src/lib/types.ts';
import { buildModels } from '../scripts/models/build-models.ts';
import { repoRoot, shared } from '../tests/shared-dir.ts';
import { writeBenchResult, type BenchFigure } from './results-file.ts';

type Collection = 'scifact' | 'starter' | 'polish';

interface Row {
  collection: Collection;
  analyzer: CliAnalyzerName;
  encoder: string;
  trainRows: boolean;
}

const GLOVE = 'local/glove-100d-sif';
const TINY_BERT = 'local/tiny-bert';

const ROWS: Record<string, Row> = {
  'scifact-english-glove': { collection: 'scifact', analyzer: 'english', encoder: GLOVE, trainRows: false },
  'scifact-english-glove-rows': { collection: 'scifact', analyzer: 'english', encoder: GLOVE, trainRows: true },
  'scifact-wordpiece-glove': { collection: 'scifact', analyzer: 'wordpiece', encoder: GLOVE, trainRows: false },
  'scifact-wordpiece-tiny-bert': { collection: 'scifact', analyzer: 'wordpiece', encoder: TINY_BERT, trainRows: false },
  'starter-english-glove': { collection: 'starter', analyzer: 'english', encoder: GLOVE, trainRows: false },
  'polish-polish-glove': { collection: 'polish', analyzer: 'polish', encoder: GLOVE, trainRows: false },
};

/** The share of a one-split collection's judged queries held out (seeded) and evaluated. */
const HELD_OUT_SHARE = 0.25;
/** SciFact trains on its train split with this share held out for the per-epoch measure (the CLI's default). */
const SCIFACT_DEV_SHARE = 0.1;

const PATHS: Record<Collection, string> = {
  scifact: shared('beir', 'scifact'),
  starter: `${repoRoot}/src/lib/starter/data`,
  polish: shared('reference', 'polish', 'manpages-pl'),
};

function encoderLabel(row: Row): string {
  if (row.encoder === GLOVE) return `GloVe ${row.trainRows ? 'rows trained' : 'frozen'}`;
  if (row.encoder === TINY_BERT) return 'tiny BERT frozen (random weights: path only)';
  return `${row.encoder} frozen`;
}

function load(): number {
  return Number(loadavg()[0]!.toFixed(2));
}

const datasets = new Map<Collection, Promise<Dataset>>();
const indexes = new Map<string, { analyzer: Analyzer; index: Bm25Index }>();

function datasetOf(collection: Collection): Promise<Dataset> {
  let dataset = datasets.get(collection);
  if (dataset === undefined) datasets.set(collection, (dataset = loadDataset(PATHS[collection], { splits: collection === 'scifact' ? ['train', 'test'] : ['test'] })));
  return dataset;
}

async function indexOf(collection: Collection, analyzerName: CliAnalyzerName): Promise<{ analyzer: Analyzer; index: Bm25Index }> {
  const key = `${collection} ${analyzerName}`;
  let opened = indexes.get(key);
  if (opened === undefined) {
    const analyzer = await loadAnalyzer(analyzerName);
    indexes.set(key, (opened = { analyzer, index: indexCorpus((await datasetOf(collection)).docs, analyzer) }));
  }
  return opened;
}

interface RowFigures {
  row: string;
  train_split: string;
  train_queries: number;
  held_out_queries: number;
  test_queries: number;
  test_from: string;
  epochs: number;
  train_s: number;
  load_train_start: number;
  load_train_end: number;
  test_bm25: Record<string, number>;
  test_augmented: Record<string, number>;
  bm25_terms_per_query: number;
  terms_per_query: number;
  query_ms_mean: number;
  bm25_query_ms_mean: number;
  augment_ms_mean: number;
  unseen_docs?: { queries: number; bm25: number; augmented: number };
  seen_docs?: { queries: number; bm25: number; augmented: number };
}

async function benchRow(name: string, row: Row, base: Omit<TrainSettings, 'trainRows'>, log: (message: string) => void): Promise<RowFigures> {
  const dataset = await datasetOf(row.collection);
  const { analyzer, index } = await indexOf(row.collection, row.analyzer);
  const bm25 = { k1: 0.9, b: 0.4, analyzer: row.analyzer as Bm25AnalyzerName };
  const encoder = await loadQueryEncoder(row.encoder, analyzer);
  const settings: TrainSettings = { ...base, trainRows: row.trainRows };
  const trainSplit = row.collection === 'scifact' ? 'train' : 'test';
  const loadStart = load();
  let trained: Awaited<ReturnType<typeof trainOnDataset>>;
  try {
    trained = await trainOnDataset(
      { dataset, index, bm25, encoder, split: trainSplit, heldOutShare: row.collection === 'scifact' ? SCIFACT_DEV_SHARE : HELD_OUT_SHARE, settings },
      { onEpoch: (r) => log(`${name} epoch ${r.epoch}: loss ${r.loss.toFixed(4)}, held-out nDCG@10 ${r.heldOut?.ndcg_cut_10.toFixed(4)}, ${r.heldOut?.terms_per_query.toFixed(1)} terms/query, ${(r.ms / 1000).toFixed(1)} s`) },
    );
  } finally {
    await encoder.dispose?.();
  }
  const { model, result } = trained;
  const loadEnd = load();
  log(`${name}: trained in ${(result.trainMs / 1000).toFixed(1)} s (load ${loadStart} → ${loadEnd})`);

  const qrels = dataset.qrels.get('test')!;
  const evaluable = evaluableQueries(model, dataset.name, 'test', { queries: judgedQueries(dataset.queries, qrels), qrels });
  const queries = evaluable.queries.queries;
  // The evaluated queries' judgments only: with `complete`, a judged query without a run would count as 0.
  const testQrels = evaluable.queries.qrels;
  const settingsOf = (retriever: 'augmented' | 'bm25'): RetrieverSettings => ({
    retriever,
    analyzer: row.analyzer,
    bm25: { k1: 0.9, b: 0.4 },
    topK: 1000,
    ignoreIdenticalIds: true,
    model: GLOVE,
    dtype: undefined,
    search: 'exact',
    ledrK: 1000,
    rrfK: 60,
    alpha: 0.5,
    normalization: 'min-max',
    augmenter: { model, path: 'bench', ref: { key: 'bench', name: 'bench', collection: dataset.name, split: trainSplit } },
  });
  const augmented = await retrieve(dataset.docs, queries, settingsOf('augmented'), () => {});
  const plain = await retrieve(dataset.docs, queries, settingsOf('bm25'), () => {});
  const measures = (run: Run) => evaluate(testQrels, run, { measures: ['ndcg_cut.10', 'recall.100'], complete: true }).all;
  const figures: RowFigures = {
    row: name,
    train_split: trainSplit,
    train_queries: result.examples,
    held_out_queries: model.training.heldOut.kind === 'share' ? model.training.heldOut.queries : 0,
    test_queries: queries.length,
    test_from: evaluable.note ?? 'the test split',
    epochs: settings.epochs,
    train_s: result.trainMs / 1000,
    load_train_start: loadStart,
    load_train_end: loadEnd,
    test_bm25: measures(plain.run),
    test_augmented: measures(augmented.run),
    bm25_terms_per_query: queries.reduce((sum, query) => sum + new Set(analyzer.analyze(query.text)).size, 0) / Math.max(1, queries.length),
    ...augmented.efficiency!,
  };
  if (row.collection === 'scifact') Object.assign(figures, seenSplit(dataset, testQrels, plain.run, augmented.run));
  return figures;
}

/** nDCG@10 of the test queries whose relevant documents do (seen) or do not (unseen) include a train query's. */
function seenSplit(dataset: Dataset, qrels: Qrels, bm25: Run, augmented: Run): Pick<RowFigures, 'seen_docs' | 'unseen_docs'> {
  const trainRelevant = new Set([...dataset.qrels.get('train')!.values()].flatMap((docs) => [...docs].filter(([, grade]) => grade > 0).map(([doc]) => doc)));
  const seen = (qid: string) => [...(qrels.get(qid) ?? [])].some(([doc, grade]) => grade > 0 && trainRelevant.has(doc));
  const mean = (run: Run, wanted: boolean) => {
    const perQuery = evaluate(qrels, run, { measures: ['ndcg_cut.10'], complete: true }).queries.filter((q) => seen(q.qid) === wanted);
    return { queries: perQuery.length, ndcg_cut_10: perQuery.reduce((sum, q) => sum + q.values['ndcg_cut_10']!, 0) / Math.max(1, perQuery.length) };
  };
  const part = (wanted: boolean) => {
    const b = mean(bm25, wanted);
    return { queries: b.queries, bm25: b.ndcg_cut_10, augmented: mean(augmented, wanted).ndcg_cut_10 };
  };
  return { seen_docs: part(true), unseen_docs: part(false) };
}

function rowFigures(name: string, row: Row, f: RowFigures): BenchFigure[] {
  const where = row.collection === 'scifact' ? `SciFact ${f.train_split} → test` : `${row.collection === 'starter' ? 'starter' : 'manpages-pl'} (${f.test_queries} held-out queries)`;
  const label = `${where}, ${row.analyzer}, ${encoderLabel(row)}`;
  const peers = (key: string) => ({ peers: { [`BM25 ${row.analyzer}`]: f.test_bm25[key]! } });
  const figures: BenchFigure[] = [
    { name: `Training, ${f.epochs} epochs on ${f.train_queries} queries (${label}), Node`, unit: 's', value: f.train_s, ...(row.collection === 'scifact' && row.encoder === GLOVE ? { goal: { max: 60 } } : {}) },
    { name: `Load average (1 min) when that training began (${name})`, unit: '', value: f.load_train_start },
    { name: `Load average (1 min) when that training ended (${name})`, unit: '', value: f.load_train_end },
    { name: `nDCG@10, augmented (${label})`, unit: '', value: f.test_augmented['ndcg_cut_10']!, ...peers('ndcg_cut_10') },
    { name: `R@100, augmented (${label})`, unit: '', value: f.test_augmented['recall_100']!, ...peers('recall_100') },
    { name: `Terms per query, augmented (${label})`, unit: 'terms', value: f.terms_per_query, peers: { [`BM25 ${row.analyzer}`]: f.bm25_terms_per_query } },
    { name: `Search per query, augmented (${label}), TypeScript BM25`, unit: 'ms', value: f.query_ms_mean, peers: { [`BM25 ${row.analyzer}`]: f.bm25_query_ms_mean } },
    { name: `Weighted bag per query (encoder + a(q)), ${label}`, unit: 'ms', value: f.augment_ms_mean },
  ];
  if (f.unseen_docs !== undefined && f.seen_docs !== undefined) {
    figures.push(
      { name: `nDCG@10 of the ${f.unseen_docs.queries} test queries whose relevant documents no train query has, augmented (${label})`, unit: '', value: f.unseen_docs.augmented, peers: { [`BM25 ${row.analyzer}`]: f.unseen_docs.bm25 } },
      { name: `nDCG@10 of the ${f.seen_docs.queries} test queries with a relevant document a train query has, augmented (${label})`, unit: '', value: f.seen_docs.augmented, peers: { [`BM25 ${row.analyzer}`]: f.seen_docs.bm25 } },
    );
  }
  return figures;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      only: { type: 'string' },
      collection: { type: 'string' },
      analyzer: { type: 'string' },
      encoder: { type: 'string' },
      'train-rows': { type: 'boolean', default: false },
      epochs: { type: 'string', default: String(DEFAULT_TRAIN_SETTINGS.epochs) },
      lambda: { type: 'string', default: String(DEFAULT_TRAIN_SETTINGS.lambda) },
      lr: { type: 'string', default: String(DEFAULT_TRAIN_SETTINGS.lr) },
    },
  });
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const custom = values.collection !== undefined || values.analyzer !== undefined || values.encoder !== undefined || values['train-rows'];
  let rows: Array<[string, Row]>;
  if (custom) {
    const row: Row = { collection: (values.collection ?? 'scifact') as Collection, analyzer: (values.analyzer ?? 'english') as CliAnalyzerName, encoder: values.encoder ?? GLOVE, trainRows: values['train-rows'] };
    if (!(row.collection in PATHS)) throw new Error(`--collection ${row.collection}: expected scifact, starter or polish`);
    rows = [[`${row.collection}-${row.analyzer}-${row.encoder.replace(/\W+/g, '-')}${row.trainRows ? '-rows' : ''}`, row]];
  } else {
    const names = values.only === undefined ? Object.keys(ROWS) : values.only.split(',');
    for (const name of names) if (!(name in ROWS)) throw new Error(`--only ${name}: rows are ${Object.keys(ROWS).join(', ')}`);
    rows = names.map((name) => [name, ROWS[name]!]);
  }
  buildModels({ only: ['glove-100d-sif', 'tiny-bert'] });
  const base = { ...DEFAULT_TRAIN_SETTINGS, epochs: Number(values.epochs), lambda: Number(values.lambda), lr: Number(values.lr) };
  const results: RowFigures[] = [];
  const figures: BenchFigure[] = [];
  for (const [name, row] of rows) {
    const f = await benchRow(name, row, base, log);
    results.push(f);
    figures.push(...rowFigures(name, row, f));
    const bm = f.test_bm25;
    const au = f.test_augmented;
    log(
      `${name}: nDCG@10 BM25 ${bm['ndcg_cut_10']!.toFixed(4)} → ${au['ndcg_cut_10']!.toFixed(4)}, R@100 ${bm['recall_100']!.toFixed(4)} → ${au['recall_100']!.toFixed(4)}, ` +
        `terms ${f.bm25_terms_per_query.toFixed(1)} → ${f.terms_per_query.toFixed(1)}, ms/query ${f.bm25_query_ms_mean.toFixed(2)} → ${f.query_ms_mean.toFixed(2)} (+ ${f.augment_ms_mean.toFixed(2)} bag)`,
    );
  }
  writeBenchResult({
    benchmark: 'augment',
    ...(custom || values.only !== undefined ? { partial: true } : {}),
    note:
      `λ ${base.lambda}, lr ${base.lr}, ${base.epochs} epochs, seed ${base.seed}, Node. SciFact: train (a seeded ${SCIFACT_DEV_SHARE} held out per epoch) → test; starter and manpages-pl: ` +
      `a seeded ${HELD_OUT_SHARE} of their one judged split held out and evaluated. Tiny BERT has random weights (its rows show the path works). Load averages: per training, and at the end in the file`,
    figures,
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(results)}\n`);
    return;
  }
  const print = (text: string) => process.stdout.write(`${text}\n`);
  print('row\tqueries\tnDCG@10 BM25 → aug\tR@100 BM25 → aug\tterms BM25 → aug\tms/query BM25 → aug (+bag)\ttrain s (load start → end)');
  for (const f of results) {
    print(
      [
        f.row,
        `${f.test_queries}`,
        `${f.test_bm25['ndcg_cut_10']!.toFixed(4)} → ${f.test_augmented['ndcg_cut_10']!.toFixed(4)}`,
        `${f.test_bm25['recall_100']!.toFixed(4)} → ${f.test_augmented['recall_100']!.toFixed(4)}`,
        `${f.bm25_terms_per_query.toFixed(1)} → ${f.terms_per_query.toFixed(1)}`,
        `${f.bm25_query_ms_mean.toFixed(2)} → ${f.query_ms_mean.toFixed(2)} (+${f.augment_ms_mean.toFixed(2)})`,
        `${f.train_s.toFixed(1)} (${f.load_train_start} → ${f.load_train_end})`,
      ].join('\t'),
    );
    if (f.unseen_docs !== undefined && f.seen_docs !== undefined) {
      print(`  nDCG@10, ${f.unseen_docs.queries} queries whose relevant documents no train query has: ${f.unseen_docs.bm25.toFixed(4)} → ${f.unseen_docs.augmented.toFixed(4)}; ${f.seen_docs.queries} with: ${f.seen_docs.bm25.toFixed(4)} → ${f.seen_docs.augmented.toFixed(4)}`);
    }
  }
}

await main();

/**
 * `eval`: index a dataset, run every judged query of a split with one retriever and print the
 * trec_eval `-c` measures the BEIR and Pyserini tables report, and judged@10. The dataset is any shape the
 * page imports (dataset.ts); it needs queries and the split's judgments.
 *
 *   npm run -s cli -- eval --dataset <path | name> --split test --retriever bm25 [--k1 0.9 --b 0.4]
 *       [--top-k 1000] [--run-out <file>] [--json]
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ANSERINI_BM25_PARAMS } from '../lib/bm25/bm25-similarity.ts';
import { judgedQueries, type BeirCollection } from '../lib/data/beir.ts';
import { formatTrecRun } from '../lib/data/trec.ts';
import { evaluate } from '../lib/eval/evaluate.ts';
import { formatTrecEval } from '../lib/eval/trec-eval-output.ts';
import type { Normalization } from '../lib/fusion/normalize.ts';
import type { Qrels, Query } from '../lib/types.ts';
import { inputNames, parseWsumFlags, wsumInputRuns, wsumRun, type WsumFlags } from './wsum.ts';
import { metricValue, parseTuneMetric, type TuneMetric } from '../lib/tuning/metric.ts';
import { cliAnalyzerNames, isCliAnalyzerName, type CliAnalyzerName } from './analyzer.ts';
import { evaluableQueries, readModel } from './augment-model.ts';
import { CliError } from './cli-error.ts';
import { numberOption, parseFlags, positiveInteger } from './flags.ts';
import { loadDataset, type Dataset } from './dataset.ts';
import { DEFAULT_RERANKER, TEST_RERANKER } from '../lib/rerank/registry.ts';
import { firstStageCeiling } from '../lib/rerank/rerank.ts';
import { DEFAULT_DENSE_MODEL } from './dense.ts';
import { FIRST_STAGES, LEXICAL_STAGES, retrieve, RETRIEVERS, type FirstStageName, type LexicalName, type RetrieverName, type RetrieverSettings, type RetrievalResult } from './retrievers.ts';
import type { CliIo } from './cli-io.ts';
import { loadImportedVectors, VECTOR_OPTIONS, VECTOR_USAGE, vectorFileFlags } from './vector-files.ts';

/**
 * The trec_eval measures of BEIR's and Pyserini's tables, and judged@10 (Pyserini's `judged.10`: how much
 * of each top 10 the qrels judge, so a reader sees how far the other figures rest on judgments).
 */
const EVAL_MEASURES = ['ndcg_cut.10', 'recall.100', 'map_cut.100', 'recip_rank', 'P.10', 'judged.10'] as const;

/** The flags of `eval`, which `tune` takes too (a tuned setting is these flags). */
export const EVAL_OPTIONS = {
  dataset: { type: 'string' },
  split: { type: 'string', default: 'test' },
  retriever: { type: 'string', default: 'bm25' },
  k1: { type: 'string' },
  b: { type: 'string' },
  analyzer: { type: 'string', default: 'english' },
  'top-k': { type: 'string', default: '1000' },
  'keep-identical-ids': { type: 'boolean', default: false },
  model: { type: 'string' },
  'dense-model': { type: 'string' },
  'first-stage': { type: 'string', default: 'bm25' },
  depth: { type: 'string', default: '100' },
  'rerank-batch': { type: 'string', default: '16' },
  dtype: { type: 'string' },
  search: { type: 'string', default: 'exact' },
  'ef-search': { type: 'string' },
  'hnsw-m': { type: 'string' },
  'ef-construction': { type: 'string' },
  'ledr-k': { type: 'string', default: '1000' },
  lexical: { type: 'string', default: 'bm25' },
  'rrf-k': { type: 'string', default: '60' },
  alpha: { type: 'string', default: '0.5' },
  normalization: { type: 'string', default: 'min-max' },
  'fb-terms': { type: 'string' },
  'fb-docs': { type: 'string' },
  'orig-weight': { type: 'string' },
  augmenter: { type: 'string' },
  'run-out': { type: 'string' },
  metric: { type: 'string' },
  fuse: { type: 'string' },
  'fuse-run': { type: 'string', multiple: true },
  weights: { type: 'string' },
  ...VECTOR_OPTIONS,
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const USAGE = `usage: npm run -s cli -- eval --dataset <path | name> [options]
  --dataset <path|name>     a BEIR folder or zip, a Pyserini JSON collection (file or folder), a folder of
                            .txt/.md files, CSV or parquet (also .gz), as the page imports them; or a
                            name under SHARED_DIR/beir (e.g. scifact). Needs queries and judgments.
  --split <name>            qrels split to evaluate (default test)
  --retriever <name>        ${Object.keys(RETRIEVERS).join(' | ')} | wsum (default bm25)
  --k1 <n> --b <n>          BM25 parameters (default 0.9, 0.4: Anserini/Pyserini)
  --analyzer <name>         ${cliAnalyzerNames.join(' | ')} (default english: Lucene EnglishAnalyzer;
                            wordpiece: BERT WordPiece tokens of all-MiniLM-L6-v2's vocabulary)
  --top-k <n>               hits per query in the run (default 1000)
  --keep-identical-ids      keep hits whose id equals the query id (default: removed, as BEIR/Pyserini)
  --model <id|folder>       dense model: registry id, hub id or model folder (default local/glove-100d-sif);
                            with rerank, the cross-encoder (default ${DEFAULT_RERANKER}; offline: ${TEST_RERANKER})
  --dtype <fp32|fp16|q8>    model weights (default: the model's)
  --first-stage <name>      rerank: ${FIRST_STAGES.join(' | ')} (default bm25)
  --depth <n>               rerank: first-stage hits re-ranked per query (default 100)
  --dense-model <id>        rerank: the first stage's dense model (default local/glove-100d-sif)
  --rerank-batch <n>        rerank: pairs per model call (default 16)
${VECTOR_USAGE}
  --search <exact|hnsw>     dense search (default exact)
  --ef-search <n>           HNSW: query beam, and the most hits a query gets (default 128, as the page)
  --hnsw-m <n>              HNSW: graph degree M (default 16)
  --ef-construction <n>     HNSW: build beam (default 200)
  --ledr-k <n>              LEDR: BM25 candidates per query (default 1000)
  --lexical <name>          LEDR: the lexical ranking scored, ${LEXICAL_STAGES.join(' | ')} (default bm25; rm3/bo1 take --fb-*)
  --rrf-k <n>               RRF constant (default 60)
  --alpha <n>               convex: weight of BM25 (default 0.5)
  --normalization <name>    convex: min-max | z-score (default min-max)
  --fb-terms <n>            rm3, bo1: feedback terms (default 10)
  --fb-docs <n>             rm3, bo1: feedback documents (default 10 for rm3, 3 for bo1)
  --orig-weight <n>         rm3: weight of the original query, 0..1 (default 0.5)
  --augmenter <model.json>  augmented: the model train-augment wrote (refused on the split that trained it)
  --metric <measure>        also print this trec_eval measure (e.g. map, ndcg_cut_20; as tune's --metric)
  --fuse <a,b,…>            wsum: retrievers fused (any but rerank), ranked with the flags above
  --fuse-run <file>         wsum: a TREC run fused too (repeatable), after the --fuse ones
  --weights <w1,…,wN>       wsum: one weight per run, in that order (min-max normalized scores)
  --run-out <file>          also write the TREC run
  --json                    print one JSON object`;

export type EvalValues = ReturnType<typeof parseArgs<{ options: typeof EVAL_OPTIONS }>>['values'];

function parseEvalArgs(args: string[]) {
  const values = parseFlags(args, EVAL_OPTIONS).values;
  if (values.help) return undefined;
  if (values.dataset === undefined) throw new CliError('--dataset <path | name> is required (try --help)');
  const metric = values.metric === undefined ? undefined : cliMetric(values.metric);
  const wsum = values.retriever === 'wsum' ? parseWsumFlags(values, true) : undefined;
  const settings = retrieverSettings(wsum === undefined ? values : { ...values, retriever: 'bm25' });
  if (values.augmenter !== undefined && values.retriever !== 'augmented') throw new CliError('--augmenter applies to --retriever augmented only');
  if (values.augmenter === undefined && values.retriever === 'augmented') throw new CliError('--retriever augmented needs --augmenter <model.json> (made by train-augment)');
  const vectorFiles = vectorFileFlags(values, values.retriever);
  return { dataset: values.dataset, split: values.split, runOut: values['run-out'], json: values.json, settings, metric, wsum, augmenter: values.augmenter, vectorFiles };
}

/** `--metric` as a measure of one value, or a CliError. */
export function cliMetric(text: string): TuneMetric {
  try {
    return parseTuneMetric(text);
  } catch (error) {
    throw new CliError(`--metric ${text}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The retriever flags as the settings `retrieve` ranks with (checked: a bad value is a CliError). */
export function retrieverSettings(values: Omit<EvalValues, 'run-out'>): RetrieverSettings {
  if (!Object.hasOwn(RETRIEVERS, values.retriever)) {
    throw new CliError(`--retriever ${values.retriever}: expected one of ${Object.keys(RETRIEVERS).join(', ')}`);
  }
  if (!isCliAnalyzerName(values.analyzer)) throw new CliError(`--analyzer ${values.analyzer}: expected one of ${cliAnalyzerNames.join(', ')}`);

  if (!(LEXICAL_STAGES as readonly string[]).includes(values.lexical)) {
    throw new CliError(`--lexical ${values.lexical}: expected one of ${LEXICAL_STAGES.join(', ')}`);
  }
  if (values.lexical !== 'bm25' && values.retriever !== 'ledr') throw new CliError('--lexical applies to --retriever ledr only');
  const prfMethod = values.retriever === 'ledr' ? values.lexical : values.retriever;
  if ((values['fb-terms'] !== undefined || values['fb-docs'] !== undefined) && prfMethod !== 'rm3' && prfMethod !== 'bo1') {
    throw new CliError('--fb-terms and --fb-docs apply to --retriever rm3 or bo1 (or ledr with --lexical rm3|bo1) only');
  }
  if (values['orig-weight'] !== undefined && prfMethod !== 'rm3') throw new CliError('--orig-weight applies to --retriever rm3 (or ledr with --lexical rm3) only');
  if (values.search !== 'exact' && values.search !== 'hnsw') throw new CliError(`--search ${values.search}: expected exact or hnsw`);
  if (values.normalization !== 'min-max' && values.normalization !== 'z-score') {
    throw new CliError(`--normalization ${values.normalization}: expected min-max or z-score`);
  }
  if (values.dtype !== undefined && !['fp32', 'fp16', 'q8'].includes(values.dtype)) {
    throw new CliError(`--dtype ${values.dtype}: expected fp32, fp16 or q8`);
  }
  if (!(FIRST_STAGES as readonly string[]).includes(values['first-stage'])) {
    throw new CliError(`--first-stage ${values['first-stage']}: expected one of ${FIRST_STAGES.join(', ')}`);
  }
  const reranking = values.retriever === 'rerank';
  const k1 = numberOption('k1', values.k1, (n) => n >= 0, 'a number ≥ 0') ?? ANSERINI_BM25_PARAMS.k1;
  const b = numberOption('b', values.b, (n) => n >= 0 && n <= 1, 'a number between 0 and 1') ?? ANSERINI_BM25_PARAMS.b;
  return {
    retriever: values.retriever as RetrieverName,
    analyzer: values.analyzer,
    bm25: { k1, b },
    topK: numberOption('top-k', values['top-k'], positiveInteger, 'a positive integer')!,
    ignoreIdenticalIds: !values['keep-identical-ids'],
    model: values.model ?? (reranking ? DEFAULT_RERANKER : DEFAULT_DENSE_MODEL),
    dtype: values.dtype as RetrieverSettings['dtype'],
    denseModel: values['dense-model'],
    firstStage: values['first-stage'] as FirstStageName,
    depth: numberOption('depth', values.depth, positiveInteger, 'a positive integer')!,
    rerankBatch: numberOption('rerank-batch', values['rerank-batch'], positiveInteger, 'a positive integer')!,
    search: values.search,
    hnsw: Object.fromEntries(
      Object.entries({
        efSearch: numberOption('ef-search', values['ef-search'], positiveInteger, 'a positive integer'),
        M: numberOption('hnsw-m', values['hnsw-m'], (n) => Number.isInteger(n) && n >= 2, 'an integer ≥ 2'),
        efConstruction: numberOption('ef-construction', values['ef-construction'], positiveInteger, 'a positive integer'),
      }).filter(([, value]) => value !== undefined),
    ),
    ledrK: numberOption('ledr-k', values['ledr-k'], positiveInteger, 'a positive integer')!,
    lexical: values.lexical as LexicalName,
    rrfK: numberOption('rrf-k', values['rrf-k'], (n) => n >= 0, 'a number ≥ 0')!,
    alpha: numberOption('alpha', values.alpha, (n) => n >= 0 && n <= 1, 'a number between 0 and 1')!,
    normalization: values.normalization as Exclude<Normalization, 'none'>,
    prf: {
      fbTerms: numberOption('fb-terms', values['fb-terms'], (n) => Number.isInteger(n) && n >= 0, 'an integer ≥ 0'),
      fbDocs: numberOption('fb-docs', values['fb-docs'], (n) => Number.isInteger(n) && n >= 0, 'an integer ≥ 0'),
      originalQueryWeight: numberOption('orig-weight', values['orig-weight'], (n) => n >= 0 && n <= 1, 'a number between 0 and 1'),
    },
  };
}

function splitQrels(collection: BeirCollection, split: string): Qrels {
  const qrels = collection.qrels.get(split);
  if (qrels === undefined) throw new CliError(`no qrels for split "${split}"`);
  return qrels;
}

/** Why a split has nothing to evaluate: no queries file, or none of its queries judged. */
function noQueries(collection: Dataset, split: string): string {
  const { queries, qrels } = collection.files;
  if (queries === undefined) return `${collection.path} has no queries file, so the judgments of split "${split}" (${qrels.get(split)}) have nothing to evaluate`;
  return `split "${split}" judges no query of ${queries}`;
}

/** `--retriever wsum`: its inputs ranked or read, fused with `--weights`. */
async function retrieveWsum(docs: Dataset['docs'], queries: readonly Query[], settings: RetrieverSettings, flags: WsumFlags, progress: (message: string) => void): Promise<RetrievalResult> {
  const started = performance.now();
  const runs = await wsumInputRuns(docs, queries, settings, flags, progress);
  const run = wsumRun(runs, flags.weights!, settings.topK);
  return { run, timings: { wsum_ms: performance.now() - started }, description: { runs: inputNames(flags).join(' + '), weights: flags.weights!.join(', ') } };
}

export async function evalCommand(args: string[], io: CliIo): Promise<void> {
  const progress = (message: string) => io.err(`${message}\n`);
  const options = parseEvalArgs(args);
  if (options === undefined) {
    io.out(`${USAGE}\n`);
    return;
  }
  const { dataset, split } = options;
  const augmenter = options.augmenter === undefined ? undefined : await readModel(options.augmenter);
  let settings = augmenter === undefined ? options.settings : { ...options.settings, augmenter, analyzer: augmenter.model.bm25.analyzer as CliAnalyzerName };
  const loadStart = performance.now();
  const collection = await loadDataset(dataset, { splits: [split] });
  const loadMs = performance.now() - loadStart;
  const qrels = splitQrels(collection, split);
  const evaluable = augmenter === undefined ? undefined : evaluableQueries(augmenter.model, collection.name, split, { queries: judgedQueries(collection.queries, qrels), qrels });
  const queries = evaluable?.queries.queries ?? judgedQueries(collection.queries, qrels);
  if (evaluable?.note !== undefined) progress(`evaluating ${evaluable.note}`);
  if (queries.length === 0) throw new CliError(noQueries(collection, split));
  progress(`loaded ${collection.docs.length} documents and ${queries.length} ${split} queries in ${loadMs.toFixed(0)} ms`);
  if (options.vectorFiles !== undefined) {
    const vectors = await loadImportedVectors(options.vectorFiles, collection, queries);
    settings = { ...settings, vectors, model: vectors.model };
    progress(`read ${vectors.corpus.rows} document and ${vectors.queries.texts.length} query vectors of ${vectors.corpus.dim} dimensions`);
  }

  const { run, timings, description, firstStage, efficiency } =
    options.wsum === undefined ? await retrieve(collection.docs, queries, settings, progress) : await retrieveWsum(collection.docs, queries, settings, options.wsum, progress);
  // Re-ranking cannot find what the first stage missed: its recall@depth is the ceiling.
  const ceiling = firstStage && settings.depth !== undefined ? firstStageCeiling(qrels, firstStage, settings.depth).mean : undefined;
  if (options.runOut !== undefined) {
    await writeFile(options.runOut, formatTrecRun(run, options.wsum === undefined ? settings.retriever : 'wsum'));
    progress(`wrote ${options.runOut}`);
  }

  const judged = evaluable?.queries.qrels ?? qrels;
  const result = evaluate(judged, run, { measures: EVAL_MEASURES, complete: true });
  // A --metric the six do not hold is measured by itself (one family per evaluation keeps its own cutoffs).
  const extra = options.metric !== undefined && !(options.metric.name in result.all) ? { [options.metric.name]: metricValue(judged, run, options.metric) } : {};
  const allTimings = { load_ms: loadMs, ...timings };
  if (options.json) {
    const report = {
      dataset: collection.name,
      split,
      retriever: options.wsum === undefined ? settings.retriever : 'wsum',
      queries: queries.length,
      ...(evaluable?.note === undefined ? {} : { queries_from: evaluable.note }),
      docs: collection.docs.length,
      settings: description,
      metrics: { ...Object.fromEntries(result.columns.map((column) => [column.name, result.all[column.name]!])), ...extra },
      ...(ceiling === undefined ? {} : { first_stage: { [`recall_${settings.depth}`]: ceiling } }),
      ...(efficiency === undefined ? {} : efficiency),
      timings: allTimings,
    };
    io.out(`${JSON.stringify(report)}\n`);
    return;
  }
  io.out(
    `# ${collection.name} ${split}${evaluable?.note === undefined ? '' : ` (${evaluable.note})`}: ${queries.length} queries, ${collection.docs.length} documents; ` +
      `${options.wsum === undefined ? settings.retriever : 'wsum'} (${Object.entries(description).map(([k, v]) => `${k} ${v}`).join(', ')}); trec_eval -c
`,
  );
  io.out(formatTrecEval(result));
  for (const [name, value] of Object.entries(extra)) io.out(`${name.padEnd(22)}\tall\t${value.toFixed(4)}\n`);
  if (ceiling !== undefined) io.out(`${`first_stage_recall_${settings.depth}`.padEnd(22)}\tall\t${ceiling.toFixed(4)}\n`);
  for (const [name, value] of Object.entries({ ...allTimings, ...efficiency })) {
    io.out(`${name.padEnd(22)}\t${value < 10 ? value.toFixed(3) : value.toFixed(0)}\n`);
  }
}

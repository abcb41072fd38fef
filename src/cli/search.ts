/**
 * `search`: one query's ranking on a dataset, with the weighted query it was parsed to. The dataset is any
 * shape the page imports (dataset.ts); documents are all it needs.
 *
 *   npm run -s cli -- search --dataset <path | name under SHARED_DIR/beir> --query "text"
 *       [--retriever bm25|rm3|bo1] [--fb-terms N --fb-docs N --orig-weight W] [--top-k 10] [--analyzer english]
 *       [--k1 0.9 --b 0.4] [--json]
 *   npm run -s cli -- search … --retriever rerank [--depth 100] [--model <cross-encoder>] [--dtype q8]
 *
 * The query takes the weighted syntax (src/lib/bm25/query-syntax.ts): `word^2.5` boosts a word, `+term^w`
 * adds an index term verbatim with weight w. Plain text searches exactly as `eval` does. Syntax problems
 * are reported on stderr (with line and column) and the rest of the query is still searched. With rm3 or
 * bo1 the parsed query goes through pseudo-relevance feedback (src/lib/prf) and the expanded weighted
 * query is printed before the ranking.
 * With `--retriever rerank` the BM25 top `depth` is re-ranked by a cross-encoder, which reads the query as
 * typed (boosts are a BM25 notion; the cross-encoder sees the text without the syntax's `^w` and `+`).
 */
import type { Bm25AnalyzerName } from '../lib/analysis/analyzers.ts';
import { weightQueryTerms, type QueryTermWeight } from '../lib/bm25/bm25-query.ts';
import { ANSERINI_BM25_PARAMS, type Bm25Params } from '../lib/bm25/bm25-similarity.ts';
import { formatWeightedQuery, parseWeightedQuery, type ParsedQuery } from '../lib/bm25/query-syntax.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import { TERRIER_BO1_PARAMS } from '../lib/prf/bo1.ts';
import type { PrfResult } from '../lib/prf/prf-result.ts';
import { ANSERINI_RM3_PARAMS } from '../lib/prf/rm3.ts';
import { DEFAULT_RERANKER, TEST_RERANKER } from '../lib/rerank/registry.ts';
import { docScorerFor, rerankDocText, type RerankedHit } from '../lib/rerank/rerank.ts';
import type { AugmenterRef, RetrieverConfig } from '../lib/retrievers/config.ts';
import type { ExpandedTerm } from '../lib/retrievers/ranking.ts';
import { readModel, type LoadedModel } from './augment-model.ts';
import { rankBatch } from '../lib/retrievers/rank.ts';
import type { Doc, Hit } from '../lib/types.ts';
import { cliAnalyzerNames, isCliAnalyzerName, type CliAnalyzerName } from './analyzer.ts';
import { CliError } from './cli-error.ts';
import { numberOption, parseFlags } from './flags.ts';
import { loadDataset } from './dataset.ts';
import { NodeSearch } from './node-search.ts';
import { loadNodeCrossEncoder, resolveNodeReranker } from './rerank.ts';
import type { CliIo } from './cli-io.ts';

/** Retrievers `search` runs (the weighted syntax is a BM25 query). */
const SEARCH_RETRIEVERS = {
  bm25: 'BM25, Lucene 8.7 / Pyserini bm25-flat semantics, weighted query syntax',
  rm3: 'BM25 + RM3 (Anserini): prints the expanded query',
  bo1: 'BM25 + Bo1 (Terrier): prints the expanded query',
  rerank: 'BM25 top depth re-ranked by a cross-encoder',
  augmented: 'BM25 over the weighted bag a trained model makes of the query (--augmenter): prints it',
} as const;

type SearchRetriever = keyof typeof SEARCH_RETRIEVERS;

const OPTIONS = {
  dataset: { type: 'string' },
  query: { type: 'string' },
  retriever: { type: 'string', default: 'bm25' },
  'top-k': { type: 'string', default: '10' },
  analyzer: { type: 'string', default: 'english' },
  k1: { type: 'string' },
  b: { type: 'string' },
  'fb-terms': { type: 'string' },
  'fb-docs': { type: 'string' },
  'orig-weight': { type: 'string' },
  depth: { type: 'string', default: '100' },
  model: { type: 'string', default: DEFAULT_RERANKER },
  dtype: { type: 'string' },
  augmenter: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const USAGE = `usage: npm run -s cli -- search --dataset <path | name> --query "text" [options]
  --dataset <path|name>  a BEIR folder or zip, a Pyserini JSON collection (file or folder), a folder of
                         .txt/.md files, CSV or parquet (also .gz), as the page imports them; or a name
                         under SHARED_DIR/beir (e.g. scifact). Documents are all it needs.
  --query <text>         the query; word^2.5 boosts a word, +term^0.5 adds an index term (verbatim)
  --retriever <name>     ${Object.keys(SEARCH_RETRIEVERS).join(' | ')} (default bm25)
  --top-k <n>            hits to print (default 10)
  --analyzer <name>      ${cliAnalyzerNames.join(' | ')} (default english)
  --k1 <n> --b <n>       BM25 parameters (default 0.9, 0.4)
  --fb-terms <n>         rm3, bo1: feedback terms (default 10)
  --fb-docs <n>          rm3, bo1: feedback documents (default 10 for rm3, 3 for bo1)
  --orig-weight <n>      rm3: weight of the original query, 0..1 (default 0.5)
  --depth <n>            rerank: BM25 hits re-ranked (default 100)
  --model <id|folder>    rerank: the cross-encoder (default ${DEFAULT_RERANKER}; offline: ${TEST_RERANKER})
  --dtype <fp32|fp16|q8> rerank: its weights (default: the model's)
  --augmenter <file>     augmented: the model file train-augment wrote (its analyzer is used)
  --json                 print one JSON object`;

const SNIPPET_CHARS = 70;

interface SearchOptions {
  depth: number;
  model: string;
  dtype: EmbeddingDtype | undefined;
  dataset: string;
  query: string;
  retriever: SearchRetriever;
  topK: number;
  analyzer: CliAnalyzerName;
  params: Bm25Params;
  fbTerms: number | undefined;
  fbDocs: number | undefined;
  originalQueryWeight: number | undefined;
  augmenter: string | undefined;
  json: boolean;
}

function parseSearchArgs(args: string[]): SearchOptions | undefined {
  const parsed = parseFlags(args, OPTIONS);
  const values = parsed.values;
  if (values.help) return undefined;
  if (values.dataset === undefined) throw new CliError('--dataset <path | name> is required (try --help)');
  if (values.query === undefined) throw new CliError('--query "text" is required (try --help)');
  if (!Object.hasOwn(SEARCH_RETRIEVERS, values.retriever)) {
    throw new CliError(`--retriever ${values.retriever}: expected one of ${Object.keys(SEARCH_RETRIEVERS).join(', ')}`);
  }
  if (!isCliAnalyzerName(values.analyzer)) throw new CliError(`--analyzer ${values.analyzer}: expected one of ${cliAnalyzerNames.join(', ')}`);
  if (values.dtype !== undefined && !['fp32', 'fp16', 'q8'].includes(values.dtype)) throw new CliError(`--dtype ${values.dtype}: expected fp32, fp16 or q8`);
  const retriever = values.retriever as SearchRetriever;
  if (values['orig-weight'] !== undefined && retriever !== 'rm3') throw new CliError('--orig-weight applies to --retriever rm3 only');
  if ((values['fb-terms'] !== undefined || values['fb-docs'] !== undefined) && retriever !== 'rm3' && retriever !== 'bo1') {
    throw new CliError('--fb-terms and --fb-docs apply to --retriever rm3 or bo1 only');
  }
  if ((values.augmenter !== undefined) !== (retriever === 'augmented')) throw new CliError('--retriever augmented and --augmenter <model.json> go together');
  const count = (n: number) => Number.isInteger(n) && n >= 0;
  return {
    augmenter: values.augmenter,
    depth: numberOption('depth', values.depth, (n) => Number.isInteger(n) && n > 0, 'a positive integer')!,
    model: values.model,
    dtype: values.dtype as EmbeddingDtype | undefined,
    dataset: values.dataset,
    query: values.query,
    retriever,
    fbTerms: numberOption('fb-terms', values['fb-terms'], count, 'an integer ≥ 0'),
    fbDocs: numberOption('fb-docs', values['fb-docs'], count, 'an integer ≥ 0'),
    originalQueryWeight: numberOption('orig-weight', values['orig-weight'], (n) => n >= 0 && n <= 1, 'a number between 0 and 1'),
    topK: numberOption('top-k', values['top-k'], (n) => Number.isInteger(n) && n > 0, 'a positive integer')!,
    analyzer: values.analyzer,
    params: {
      k1: numberOption('k1', values.k1, (n) => n >= 0, 'a number ≥ 0') ?? ANSERINI_BM25_PARAMS.k1,
      b: numberOption('b', values.b, (n) => n >= 0 && n <= 1, 'a number between 0 and 1') ?? ANSERINI_BM25_PARAMS.b,
    },
    json: values.json,
  };
}

/**
 * The query as a cross-encoder should read it: the weighted syntax's boosts (`^2.5`) and added-term marks
 * (a `+` starting a word) removed, lines joined.
 */
function plainQueryText(query: string): string {
  return query
    .replace(/\^[0-9]*\.?[0-9]*/g, '')
    .replace(/(^|\s)\+(?=\S)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The title, or the start of the text when there is none, cut to one short line. */
export function snippet(doc: Pick<Doc, 'title' | 'text'>): string {
  const text = (doc.title.trim() === '' ? doc.text : doc.title).replace(/\s+/g, ' ').trim();
  return text.length <= SNIPPET_CHARS ? text : `${text.slice(0, SNIPPET_CHARS - 1)}…`;
}

/** The parse report as "query line:column: …" lines, in the order of the text. */
function syntaxReport(parsed: ParsedQuery): string[] {
  const lines = [
    ...parsed.errors.map((e) => ({ at: e, message: `error: ${e.message}` })),
    ...parsed.notes.map((n) => ({ at: n, message: `note: ${n.message}` })),
    ...parsed.dropped
      .filter((d) => d.boosted)
      .map((d) => ({ at: d, message: `note: "${d.text}" gives no term (the analyzer drops it); its boost is lost` })),
  ];
  return lines.sort((x, y) => x.at.offset - y.at.offset).map(({ at, message }) => `query ${at.line}:${at.column}: ${message}`);
}

export async function searchCommand(args: string[], io: CliIo): Promise<void> {
  const options = parseSearchArgs(args);
  if (options === undefined) {
    io.out(`${USAGE}\n`);
    return;
  }
  const loaded = options.augmenter === undefined ? undefined : await readModel(options.augmenter);
  if (loaded !== undefined) options.analyzer = loaded.model.bm25.analyzer as CliAnalyzerName;
  // Judgments are not needed to rank; the queries file is still read (and checked), as before.
  const collection = await loadDataset(options.dataset, { splits: [] });
  const docsById = new Map(collection.docs.map((doc) => [doc.id, doc]));
  const reranking = options.retriever === 'rerank';
  const crossEncoder = reranking ? await loadNodeCrossEncoder(resolveNodeReranker(options.model), { dtype: options.dtype }) : undefined;
  try {
    let rerankMs = 0;
    const search = new NodeSearch(collection.docs, {
      ...(loaded === undefined ? {} : { augmenters: new Map([[loaded.ref.key, loaded.model]]) }),
      rerank: async (_settings, query, docIds) => {
        const t0 = performance.now();
        const textOf = (id: string) => {
          const doc = docsById.get(id);
          return doc === undefined ? undefined : rerankDocText(doc);
        };
        const scores = await docScorerFor(crossEncoder!, query.text, textOf)(docIds);
        rerankMs += performance.now() - t0;
        return scores;
      },
    });
    const { analyzer, index } = await search.openLexical(options.analyzer);
    const parsed = parseWeightedQuery(options.query, analyzer);
    for (const line of syntaxReport(parsed)) io.err(`${line}\n`);

    const started = performance.now();
    // The cross-encoder reads the query without the syntax; BM25 ranks the parsed bag.
    const query = { text: plainQueryText(options.query), weighted: parsed.terms };
    const [ranking] = await rankBatch(search, searchConfig(options, crossEncoder?.dtype, loaded?.ref), [query], { depth: options.topK });
    const hits: Array<Hit | RerankedHit> = ranking?.hits ?? [];
    const prf = ranking !== undefined && (ranking.kind === 'rm3' || ranking.kind === 'bo1') ? ranking : undefined;
    const augmented = ranking?.kind === 'augmented' ? { expanded: ranking.expanded, model: loaded! } : undefined;
    const searchMs = performance.now() - started - rerankMs;
    const clauses = weightQueryTerms(index, { weighted: parsed.terms });
    const rerankInfo = crossEncoder && {
      model: crossEncoder.spec.id,
      dtype: crossEncoder.dtype,
      depth: options.depth,
      max_length: crossEncoder.maxLength,
      rerank_ms: rerankMs,
    };
    report(io, options, collection.name, collection.docs.length, parsed, clauses, prf, hits, docsById, searchMs, rerankInfo, augmented);
  } finally {
    await crossEncoder?.dispose();
  }
}

/** The column configuration the search's flags describe (the page's, ranked by the same code). */
function searchConfig(options: SearchOptions, rerankDtype: EmbeddingDtype | undefined, augmenter: AugmenterRef | undefined): RetrieverConfig {
  const bm25 = { ...options.params, analyzer: options.analyzer as Bm25AnalyzerName };
  switch (options.retriever) {
    case 'bm25':
      return { kind: 'bm25', bm25 };
    case 'rm3':
      return {
        kind: 'rm3',
        bm25,
        fbTerms: options.fbTerms ?? ANSERINI_RM3_PARAMS.fbTerms,
        fbDocs: options.fbDocs ?? ANSERINI_RM3_PARAMS.fbDocs,
        originalQueryWeight: options.originalQueryWeight ?? ANSERINI_RM3_PARAMS.originalQueryWeight,
      };
    case 'bo1':
      return { kind: 'bo1', bm25, fbTerms: options.fbTerms ?? TERRIER_BO1_PARAMS.fbTerms, fbDocs: options.fbDocs ?? TERRIER_BO1_PARAMS.fbDocs };
    case 'rerank':
      return { kind: 'rerank', firstStage: { kind: 'bm25', bm25 }, depth: options.depth, rerank: { model: options.model, dtype: rerankDtype ?? 'q8', device: 'auto' } };
    case 'augmented':
      return { kind: 'augmented', bm25, augmenter: augmenter! };
  }
}

function report(
  io: CliIo,
  options: SearchOptions,
  datasetName: string,
  docCount: number,
  parsed: ParsedQuery,
  clauses: ReturnType<typeof weightQueryTerms>,
  prf: Pick<PrfResult, 'expanded' | 'feedbackDocIds'> | undefined,
  hits: ReadonlyArray<Hit | RerankedHit>,
  docsById: ReadonlyMap<string, Doc>,
  searchMs: number,
  rerankInfo: { model: string; dtype: string; depth: number; max_length: number; rerank_ms: number } | undefined,
  augmented?: { expanded: ExpandedTerm[]; model: LoadedModel },
): void {
  const rows = hits.map((hit, i) => ({
    rank: i + 1,
    ...('firstStageRank' in hit ? { firstStageRank: hit.firstStageRank, firstStageScore: hit.firstStageScore } : {}),
    docId: hit.docId,
    score: hit.score,
    title: snippet(docsById.get(hit.docId)!),
  }));

  if (options.json) {
    const report = {
      dataset: datasetName,
      retriever: options.retriever,
      settings: {
        ...options.params,
        analyzer: options.analyzer,
        ...prfSettings(options),
        ...(rerankInfo ? { depth: rerankInfo.depth, model: rerankInfo.model, dtype: rerankInfo.dtype, max_length: rerankInfo.max_length } : {}),
      },
      query: options.query,
      parsed: {
        canonical: formatWeightedQuery(parsed.terms),
        terms: clauses.map(({ term, boost, df, idf }) => ({ term, weight: boost, df, idf })),
        dropped: parsed.dropped,
        errors: parsed.errors,
        notes: parsed.notes,
      },
      ...(prf === undefined ? {} : { expanded: { canonical: formatWeightedQuery(prf.expanded), terms: prf.expanded }, feedbackDocIds: prf.feedbackDocIds }),
      ...(augmented === undefined
        ? {}
        : { augmenter: { name: augmented.model.ref.name, trained_on: `${augmented.model.ref.collection} ${augmented.model.ref.split}` }, expanded: augmented.expanded }),
      hits: rows,
      search_ms: searchMs,
      ...(rerankInfo ? { rerank_ms: rerankInfo.rerank_ms } : {}),
    };
    io.out(`${JSON.stringify(report)}\n`);
    return;
  }
  const out: string[] = [];
  const extra = Object.entries(prfSettings(options)).map(([name, value]) => `, ${name} ${value}`).join('');
  out.push(`# ${datasetName}: ${docCount} documents; ${options.retriever} (k1 ${options.params.k1}, b ${options.params.b}, analyzer ${options.analyzer}${extra})`);
  out.push(`# query: ${options.query.replace(/\n/g, ' ⏎ ')}`);
  out.push(`# parsed: ${parsed.terms.length === 0 ? '(no terms)' : formatWeightedQuery(parsed.terms)}`);
  for (const { term, boost, df, idf } of clauses) {
    out.push(`#   ${term.padEnd(20)} weight ${String(boost).padEnd(10)} ${df > 0 ? `df ${df}, idf ${idf.toFixed(4)}` : 'not in the index'}`);
  }
  const dropped = parsed.dropped.map((d) => d.text);
  if (dropped.length > 0) out.push(`# dropped: ${dropped.join(' ')}`);
  if (prf !== undefined) {
    out.push(`# feedback documents: ${prf.feedbackDocIds.join(' ') || '(none)'}`);
    out.push(`# expanded: ${prf.expanded.length === 0 ? '(no terms)' : formatWeightedQuery(prf.expanded)}`);
    for (const line of expandedTable(prf.expanded, parsed.terms)) out.push(line);
  }
  if (augmented !== undefined) {
    out.push(`# augmenter: ${augmented.model.ref.name}, trained on ${augmented.model.ref.collection} ${augmented.model.ref.split}`);
    out.push(`# expanded: ${augmented.expanded.length} terms (${augmented.expanded.filter((t) => t.added).length} added)`);
    for (const { term, weight, added } of augmented.expanded) out.push(`#   ${term.padEnd(20)} weight ${weight.toFixed(6)}${added ? '  (added)' : ''}`);
  }
  if (rerankInfo) {
    out.push(`# re-ranked: BM25 top ${rerankInfo.depth} by ${rerankInfo.model} (${rerankInfo.dtype}, ${rerankInfo.max_length} tokens per pair) in ${rerankInfo.rerank_ms.toFixed(0)} ms`);
    out.push('rank\tbm25\tdoc\tscore\ttitle');
    for (const row of rows) out.push(`${row.rank}\t${row.firstStageRank}\t${row.docId}\t${row.score.toFixed(4)}\t${row.title}`);
  } else {
    out.push('rank\tdoc\tscore\ttitle');
    for (const row of rows) out.push(`${row.rank}\t${row.docId}\t${row.score.toFixed(4)}\t${row.title}`);
  }
  if (rows.length === 0) out.push('(no document matches)');
  io.out(`${out.join('\n')}\n`);
}

/** The settings of a feedback retriever that were given (the rest are the method's defaults). */
function prfSettings(options: SearchOptions): Record<string, number> {
  if (options.retriever !== 'rm3' && options.retriever !== 'bo1') return {};
  const given: Record<string, number | undefined> = {
    fbTerms: options.fbTerms,
    fbDocs: options.fbDocs,
    originalQueryWeight: options.originalQueryWeight,
  };
  return Object.fromEntries(Object.entries(given).filter((entry): entry is [string, number] => entry[1] !== undefined));
}

/** One line per expanded term: its weight, and whether it was in the query. */
function expandedTable(expanded: readonly QueryTermWeight[], original: readonly QueryTermWeight[]): string[] {
  const inQuery = new Set(original.map((t) => t.term));
  return expanded.map(({ term, weight }) => `#   ${term.padEnd(20)} weight ${weight.toFixed(6)}${inQuery.has(term) ? '  (query term)' : ''}`);
}

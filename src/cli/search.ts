/**
 * `search`: one query's ranking on a BEIR dataset, with the weighted query it was parsed to.
 *
 *   npm run -s cli -- search --dataset <BEIR dir | name under SHARED_DIR/beir> --query "text"
 *       [--retriever bm25] [--top-k 10] [--analyzer english] [--k1 0.9 --b 0.4] [--json]
 *   npm run -s cli -- search … --retriever rerank [--depth 100] [--model <cross-encoder>] [--dtype q8]
 *
 * The query takes the weighted syntax (src/lib/bm25/query-syntax.ts): `word^2.5` boosts a word, `+term^w`
 * adds an index term verbatim with weight w. Plain text searches exactly as `eval` does. Syntax problems
 * are reported on stderr (with line and column) and the rest of the query is still searched.
 * With `--retriever rerank` the BM25 top `depth` is re-ranked by a cross-encoder, which reads the query as
 * typed (boosts are a BM25 notion; the cross-encoder sees the text without the syntax's `^w` and `+`).
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzerNames, createAnalyzer, isAnalyzerName, type AnalyzerName } from '../lib/analysis/analyzers.ts';
import { indexCorpus } from '../lib/bm25/bm25-corpus.ts';
import { weightQueryTerms } from '../lib/bm25/bm25-query.ts';
import { searchBm25 } from '../lib/bm25/bm25-search.ts';
import type { Bm25Params } from '../lib/bm25/bm25-similarity.ts';
import { formatWeightedQuery, parseWeightedQuery, type ParsedQuery } from '../lib/bm25/query-syntax.ts';
import type { Doc, Hit } from '../lib/types.ts';
import { DEFAULT_RERANKER, TEST_RERANKER } from '../lib/rerank/registry.ts';
import { docScorerFor, rerank, rerankDocText, type RerankedHit } from '../lib/rerank/rerank.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import { CliError } from './cli-error.ts';
import { loadBeirDir, resolveDatasetDir } from './dataset.ts';
import { loadNodeCrossEncoder, resolveNodeReranker } from './rerank.ts';

/** Retrievers `search` runs (the weighted syntax is a BM25 query). */
export const SEARCH_RETRIEVERS = {
  bm25: 'BM25, Lucene 8.7 / Pyserini bm25-flat semantics, weighted query syntax',
  rerank: 'BM25 top depth re-ranked by a cross-encoder',
} as const;

const OPTIONS = {
  dataset: { type: 'string' },
  query: { type: 'string' },
  retriever: { type: 'string', default: 'bm25' },
  'top-k': { type: 'string', default: '10' },
  analyzer: { type: 'string', default: 'english' },
  k1: { type: 'string' },
  b: { type: 'string' },
  depth: { type: 'string', default: '100' },
  model: { type: 'string', default: DEFAULT_RERANKER },
  dtype: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const USAGE = `usage: npm run -s cli -- search --dataset <BEIR dir | name> --query "text" [options]
  --dataset <dir|name>   a BEIR folder, or a name under SHARED_DIR/beir (e.g. scifact)
  --query <text>         the query; word^2.5 boosts a word, +term^0.5 adds an index term (verbatim)
  --retriever <name>     ${Object.keys(SEARCH_RETRIEVERS).join(' | ')} (default bm25)
  --top-k <n>            hits to print (default 10)
  --analyzer <name>      ${analyzerNames.join(' | ')} (default english)
  --k1 <n> --b <n>       BM25 parameters (default 0.9, 0.4)
  --depth <n>            rerank: BM25 hits re-ranked (default 100)
  --model <id|folder>    rerank: the cross-encoder (default ${DEFAULT_RERANKER}; offline: ${TEST_RERANKER})
  --dtype <fp32|fp16|q8> rerank: its weights (default: the model's)
  --json                 print one JSON object`;

const SNIPPET_CHARS = 70;

interface SearchOptions {
  retriever: keyof typeof SEARCH_RETRIEVERS;
  depth: number;
  model: string;
  dtype: EmbeddingDtype | undefined;
  dataset: string;
  query: string;
  topK: number;
  analyzer: AnalyzerName;
  params: Bm25Params;
  json: boolean;
}

function numberOption(name: string, text: string | undefined, check: (n: number) => boolean, what: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || !check(value)) throw new CliError(`--${name} ${text}: expected ${what}`);
  return value;
}

function parseSearchArgs(args: string[]): SearchOptions | undefined {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: false, strict: true });
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)} (try --help)`);
  }
  const values = parsed.values;
  if (values.help) return undefined;
  if (values.dataset === undefined) throw new CliError('--dataset <BEIR dir | name> is required (try --help)');
  if (values.query === undefined) throw new CliError('--query "text" is required (try --help)');
  if (!Object.hasOwn(SEARCH_RETRIEVERS, values.retriever)) {
    throw new CliError(`--retriever ${values.retriever}: expected one of ${Object.keys(SEARCH_RETRIEVERS).join(', ')}`);
  }
  if (!isAnalyzerName(values.analyzer)) throw new CliError(`--analyzer ${values.analyzer}: expected one of ${analyzerNames.join(', ')}`);
  if (values.dtype !== undefined && !['fp32', 'fp16', 'q8'].includes(values.dtype)) throw new CliError(`--dtype ${values.dtype}: expected fp32, fp16 or q8`);
  return {
    retriever: values.retriever as keyof typeof SEARCH_RETRIEVERS,
    depth: numberOption('depth', values.depth, (n) => Number.isInteger(n) && n > 0, 'a positive integer')!,
    model: values.model,
    dtype: values.dtype as EmbeddingDtype | undefined,
    dataset: values.dataset,
    query: values.query,
    topK: numberOption('top-k', values['top-k'], (n) => Number.isInteger(n) && n > 0, 'a positive integer')!,
    analyzer: values.analyzer,
    params: {
      k1: numberOption('k1', values.k1, (n) => n >= 0, 'a number ≥ 0') ?? 0.9,
      b: numberOption('b', values.b, (n) => n >= 0 && n <= 1, 'a number between 0 and 1') ?? 0.4,
    },
    json: values.json,
  };
}

/**
 * The query as a cross-encoder should read it: the weighted syntax's boosts (`^2.5`) and added-term marks
 * (a `+` starting a word) removed, lines joined.
 */
export function plainQueryText(query: string): string {
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
export function syntaxReport(parsed: ParsedQuery): string[] {
  const lines = [
    ...parsed.errors.map((e) => ({ at: e, message: `error: ${e.message}` })),
    ...parsed.notes.map((n) => ({ at: n, message: `note: ${n.message}` })),
    ...parsed.dropped
      .filter((d) => d.boosted)
      .map((d) => ({ at: d, message: `note: "${d.text}" gives no term (the analyzer drops it); its boost is lost` })),
  ];
  return lines.sort((x, y) => x.at.offset - y.at.offset).map(({ at, message }) => `query ${at.line}:${at.column}: ${message}`);
}

export async function searchCommand(args: string[]): Promise<void> {
  const options = parseSearchArgs(args);
  if (options === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dir = await resolveDatasetDir(options.dataset);
  const collection = await loadBeirDir(dir);
  const analyzer = createAnalyzer(options.analyzer);
  const index = indexCorpus(collection.docs, analyzer);
  const parsed = parseWeightedQuery(options.query, analyzer);
  for (const line of syntaxReport(parsed)) process.stderr.write(`${line}\n`);

  const started = performance.now();
  const reranking = options.retriever === 'rerank';
  const firstDepth = reranking ? options.depth : options.topK;
  let hits: Array<Hit | RerankedHit> = searchBm25(index, { weighted: parsed.terms }, { k: firstDepth, params: options.params });
  const searchMs = performance.now() - started;
  const clauses = weightQueryTerms(index, { weighted: parsed.terms });
  const docsById = new Map(collection.docs.map((doc) => [doc.id, doc]));
  let rerankInfo: { model: string; dtype: string; depth: number; max_length: number; rerank_ms: number } | undefined;
  if (reranking) {
    const crossEncoder = await loadNodeCrossEncoder(resolveNodeReranker(options.model), { dtype: options.dtype });
    try {
      const t0 = performance.now();
      const text = plainQueryText(options.query);
      const textOf = (id: string) => {
        const doc = docsById.get(id);
        return doc === undefined ? undefined : rerankDocText(doc);
      };
      hits = (await rerank(hits, options.depth, docScorerFor(crossEncoder, text, textOf))).slice(0, options.topK);
      rerankInfo = { model: crossEncoder.spec.id, dtype: crossEncoder.dtype, depth: options.depth, max_length: crossEncoder.maxLength, rerank_ms: performance.now() - t0 };
    } finally {
      await crossEncoder.dispose();
    }
  }
  const rows = hits.map((hit, i) => ({
    rank: i + 1,
    ...('firstStageRank' in hit ? { firstStageRank: hit.firstStageRank, firstStageScore: hit.firstStageScore } : {}),
    docId: hit.docId,
    score: hit.score,
    title: snippet(docsById.get(hit.docId)!),
  }));

  if (options.json) {
    const report = {
      dataset: basename(dir),
      retriever: options.retriever,
      settings: { ...options.params, analyzer: options.analyzer, ...(rerankInfo ? { depth: rerankInfo.depth, model: rerankInfo.model, dtype: rerankInfo.dtype, max_length: rerankInfo.max_length } : {}) },
      query: options.query,
      parsed: {
        canonical: formatWeightedQuery(parsed.terms),
        terms: clauses.map(({ term, boost, df, idf }) => ({ term, weight: boost, df, idf })),
        dropped: parsed.dropped,
        errors: parsed.errors,
        notes: parsed.notes,
      },
      hits: rows,
      search_ms: searchMs,
      ...(rerankInfo ? { rerank_ms: rerankInfo.rerank_ms } : {}),
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
  const out: string[] = [];
  out.push(`# ${basename(dir)}: ${collection.docs.length} documents; bm25 (k1 ${options.params.k1}, b ${options.params.b}, analyzer ${options.analyzer})`);
  out.push(`# query: ${options.query.replace(/\n/g, ' ⏎ ')}`);
  out.push(`# parsed: ${parsed.terms.length === 0 ? '(no terms)' : formatWeightedQuery(parsed.terms)}`);
  for (const { term, boost, df, idf } of clauses) {
    out.push(`#   ${term.padEnd(20)} weight ${String(boost).padEnd(10)} ${df > 0 ? `df ${df}, idf ${idf.toFixed(4)}` : 'not in the index'}`);
  }
  const dropped = parsed.dropped.map((d) => d.text);
  if (dropped.length > 0) out.push(`# dropped: ${dropped.join(' ')}`);
  if (rerankInfo) {
    out.push(`# re-ranked: BM25 top ${rerankInfo.depth} by ${rerankInfo.model} (${rerankInfo.dtype}, ${rerankInfo.max_length} tokens per pair) in ${rerankInfo.rerank_ms.toFixed(0)} ms`);
    out.push('rank\tbm25\tdoc\tscore\ttitle');
    for (const row of rows) out.push(`${row.rank}\t${row.firstStageRank}\t${row.docId}\t${row.score.toFixed(4)}\t${row.title}`);
  } else {
    out.push('rank\tdoc\tscore\ttitle');
    for (const row of rows) out.push(`${row.rank}\t${row.docId}\t${row.score.toFixed(4)}\t${row.title}`);
  }
  if (rows.length === 0) out.push('(no document matches)');
  process.stdout.write(`${out.join('\n')}\n`);
}

/**
 * `npm run -s cli -- trec-eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-Z file] [-R qrels] [-T trec_results]
 *   [-m measure[.params]]… [--json] <qrels> <run>`
 *
 * trec_eval 9.0.8's command line (trec_eval.c: getopt_long options "hvqm:cl:nD:JN:M:R:T:oZ:") for the
 * measures of src/lib/eval: same flag forms (`-mP.5`, `-m P.5`, `-M100`, `-l2`, bundled `-qc`, long
 * names such as `--measure=map`, options after the files), same text output byte for byte. `-R` accepts
 * all four of 9.0.8's judgment formats (`qrels`, `qrels_jg`, `prefs`, `qrels_prefs`) and `-T` the
 * `trec_results` format (9.0.8's only one); -D (debug
 * traces), -o (a flag 9.0.8 reads but no measure uses) and -v are refused rather than ignored. `-` as the
 * run file reads standard input. `--json` prints one JSON object instead of the text table.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ParseError } from '../lib/data/errors.ts';
import type { ByteSource } from '../lib/data/lines.ts';
import { mergeJudgmentGroups, readTrecQrels, readTrecQrelsJg, readTrecRun, type QrelsJg } from '../lib/data/trec.ts';
import { readTrecPrefs, readTrecQrelsPrefs, type Prefs } from '../lib/data/trec-prefs.ts';
import { evaluate, type EvalResult } from '../lib/eval/evaluate.ts';
import { MEASURE_FAMILIES, MeasureError, atol } from '../lib/eval/measure-spec.ts';
import { PrefsError } from '../lib/eval/prefs-counts.ts';
import { DuplicateDocumentError } from '../lib/hits/trec-order.ts';
import type { Qrels } from '../lib/types.ts';
import { formatTrecEval } from '../lib/eval/trec-eval-output.ts';
import { parseZScores, type ZScores } from '../lib/eval/zscores.ts';
import { CliError } from './cli-error.ts';
import type { CliIo } from './cli-io.ts';

const usage = `usage: npm run -s cli -- trec-eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-Z file] {-m measure[.params]}* [--json] qrels_file results_file
  -q        also print every query's values
  -c        average over all qrels queries (absent ones count 0)
  -n        no summary ("all") rows
  -J        evaluate only the judged documents of each ranking
  -l N      minimum grade of a relevant document (default 1)
  -M N      evaluate only the first N documents of each query
  -N N      number of documents in the collection (for utility; default 0)
  -Z file   print z-scores against the 'qid measure mean stddev' lines of file
  -R F      relevance file format: qrels (default), qrels_jg, prefs or qrels_prefs; -T trec_results: the only results format
  -m M      measure, e.g. -m ndcg_cut.10 -mP.5,10 -m recall.100 -m judged.10 -m all_trec -m set (default: official;
            with -R prefs or qrels_prefs: -m all_prefs or -m prefs)
  --json    print one JSON object instead of trec_eval's text
supported measures: ${MEASURE_FAMILIES.join(' ')}
nicknames: official all_trec set qrels_jg all_prefs prefs
`;

export interface TrecEvalArgs {
  perQuery: boolean;
  complete: boolean;
  summary: boolean;
  relevanceLevel: number;
  maxDocs: number;
  judgedDocsOnly: boolean;
  numDocsInCollection: number;
  zscoresPath: string | undefined;
  relFormat: string;
  resultsFormat: string;
  measures: string[];
  json: boolean;
  help: boolean;
  qrelsPath: string;
  runPath: string;
}

/** Options that take a value, by short letter. */
const VALUE_OPTIONS = new Set(['m', 'l', 'M', 'N', 'R', 'T', 'Z', 'D']);
const LONG_OPTIONS: Record<string, string> = {
  help: 'h',
  query_eval_wanted: 'q',
  measure: 'm',
  complete_rel_info_wanted: 'c',
  level_for_rel: 'l',
  nosummary: 'n',
  Max_retrieved_per_topic: 'M',
  Judged_docs_only: 'J',
  Number_docs_in_coll: 'N',
  Rel_info_format: 'R',
  Results_format: 'T',
  Zscore: 'Z',
  Debug_level: 'D',
  Output_old_results_format: 'o',
  version: 'v',
};
const REFUSED = new Set(['v', 'D', 'o']);
/** Relevance formats of trec_eval 9.0.8 (formats.c). */
const REL_FORMATS = new Set(['qrels', 'qrels_jg', 'prefs', 'qrels_prefs']);

/** Parses trec_eval's command line (GNU getopt style). Throws CliError on anything it cannot honour. */
export function parseTrecEvalArgs(args: readonly string[]): TrecEvalArgs {
  const parsed: Omit<TrecEvalArgs, 'qrelsPath' | 'runPath'> = {
    perQuery: false,
    complete: false,
    summary: true,
    relevanceLevel: 1,
    maxDocs: Infinity,
    judgedDocsOnly: false,
    numDocsInCollection: 0,
    zscoresPath: undefined,
    relFormat: 'qrels',
    resultsFormat: 'trec_results',
    measures: [],
    json: false,
    help: false,
  };
  const files: string[] = [];
  const apply = (option: string, value: string | undefined): void => {
    switch (option) {
      case 'h':
        parsed.help = true;
        break;
      case 'q':
        parsed.perQuery = true;
        break;
      case 'c':
        parsed.complete = true;
        break;
      case 'n':
        parsed.summary = false;
        break;
      case 'm':
        parsed.measures.push(value!);
        break;
      case 'l':
        parsed.relevanceLevel = integerOption('-l', value!);
        break;
      case 'J':
        parsed.judgedDocsOnly = true;
        break;
      case 'N':
        // trec_eval reads -N with atol: a non-number is 0.
        parsed.numDocsInCollection = atol(value!);
        break;
      case 'Z':
        parsed.zscoresPath = value!;
        break;
      case 'R':
        parsed.relFormat = value!;
        break;
      case 'T':
        parsed.resultsFormat = value!;
        break;
      case 'M': {
        const maxDocs = integerOption('-M', value!);
        if (maxDocs < 0) throw new CliError(`-M needs a number of documents >= 0, got '${value}'`);
        parsed.maxDocs = maxDocs;
        break;
      }
      default:
        throw new CliError(
          REFUSED.has(option) ? `option -${option} is not supported by this trec-eval` : `unknown option -${option} (try --help)`,
        );
    }
  };

  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (arg === '--json') {
      parsed.json = true;
    } else if (arg.startsWith('--')) {
      const [name, inline] = splitLongOption(arg.slice(2));
      const option = LONG_OPTIONS[name];
      if (option === undefined) throw new CliError(`unknown option --${name} (try --help)`);
      let value = inline;
      if (VALUE_OPTIONS.has(option) && value === undefined) {
        value = args[++i];
        if (value === undefined) throw new CliError(`option --${name} needs a value`);
      }
      apply(option, value);
    } else if (arg.startsWith('-') && arg !== '-') {
      // A cluster of short options ("-qc"); a value option takes the rest of the cluster or the next arg.
      for (let j = 1; j < arg.length; j++) {
        const option = arg[j]!;
        if (VALUE_OPTIONS.has(option)) {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          if (value === undefined) throw new CliError(`option -${option} needs a value`);
          apply(option, value);
          break;
        }
        apply(option, undefined);
      }
    } else {
      files.push(arg);
    }
  }
  if (parsed.help) return { ...parsed, qrelsPath: '', runPath: '' };
  if (files.length !== 2) {
    throw new CliError(`expected a qrels file and a results file, got ${files.length} file argument(s) (try --help)`);
  }
  return { ...parsed, qrelsPath: files[0]!, runPath: files[1]! };
}

function splitLongOption(text: string): [string, string | undefined] {
  const equals = text.indexOf('=');
  return equals === -1 ? [text, undefined] : [text.slice(0, equals), text.slice(equals + 1)];
}

function integerOption(flag: string, value: string): number {
  if (!/^[+-]?\d+$/.test(value)) throw new CliError(`${flag} needs an integer, got '${value}'`);
  return Number.parseInt(value, 10);
}

function openSource(path: string, io: CliIo): ByteSource {
  return path === '-' ? io.stdin() : createReadStream(path);
}

/** Reads a file through one of the TREC parsers, turning read and parse failures into one-line CliErrors. */
async function readInput<T>(io: CliIo, path: string, what: string, read: (source: ByteSource, file: string) => Promise<T>): Promise<T> {
  try {
    return await read(openSource(path, io), path === '-' ? '<stdin>' : path);
  } catch (error) {
    if (error instanceof ParseError) throw new CliError(`${what}: ${error.message}`);
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot read ${what} file '${path}': ${message}`);
  }
}

/**
 * The judgments file in its `-R` format. With judgment groups `qrels` merges them (the list of judged
 * queries); with preferences it is empty and `prefs` holds the judgments.
 */
async function readJudgments(io: CliIo, path: string, format: string): Promise<{ qrels: Qrels; judgmentGroups?: QrelsJg; prefs?: Prefs }> {
  switch (format) {
    case 'qrels_jg': {
      const judgmentGroups = await readInput(io, path, 'qrels', (source, file) => readTrecQrelsJg(source, { file }));
      return { qrels: mergeJudgmentGroups(judgmentGroups), judgmentGroups };
    }
    case 'prefs':
      return { qrels: new Map(), prefs: await readInput(io, path, 'prefs', (source, file) => readTrecPrefs(source, { file })) };
    case 'qrels_prefs':
      return { qrels: new Map(), prefs: await readInput(io, path, 'qrels', (source, file) => readTrecQrelsPrefs(source, { file })) };
    default:
      return { qrels: await readInput(io, path, 'qrels', (source, file) => readTrecQrels(source, { file })) };
  }
}

async function readZScores(path: string): Promise<ZScores> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot read zscores file '${path}': ${message}`);
  }
  try {
    return parseZScores(text, path);
  } catch (error) {
    if (error instanceof ParseError) throw new CliError(`zscores: ${error.message}`);
    throw error;
  }
}

export async function trecEvalCommand(args: string[], io: CliIo): Promise<void> {
  const options = parseTrecEvalArgs(args);
  if (options.help) {
    io.out(usage);
    return;
  }
  if (!REL_FORMATS.has(options.relFormat)) {
    throw new CliError(`illegal rel_info format '${options.relFormat}' (trec_eval 9.0.8 knows qrels, prefs, qrels_prefs, qrels_jg)`);
  }
  if (options.resultsFormat !== 'trec_results') {
    throw new CliError(`illegal retrieval results format '${options.resultsFormat}' (trec_eval 9.0.8 knows trec_results only)`);
  }
  const zscores = options.zscoresPath === undefined ? undefined : await readZScores(options.zscoresPath);
  const { qrels, judgmentGroups, prefs } = await readJudgments(io, options.qrelsPath, options.relFormat);
  const { run, runId } = await readInput(io, options.runPath, 'results', (source, file) => readTrecRun(source, { file }));
  if ((prefs ?? qrels).size === 0) throw new CliError(`${options.relFormat} file '${options.qrelsPath}' holds no judgments`);
  if (run.size === 0) throw new CliError(`results file '${options.runPath}' holds no results`);

  let result: EvalResult;
  try {
    result = evaluate(qrels, run, {
      measures: options.measures.length > 0 ? options.measures : ['official'],
      relevanceLevel: options.relevanceLevel,
      complete: options.complete,
      maxDocs: options.maxDocs,
      judgedDocsOnly: options.judgedDocsOnly,
      numDocsInCollection: options.numDocsInCollection,
      ...(zscores === undefined ? {} : { zscores }),
      ...(judgmentGroups === undefined ? {} : { judgmentGroups }),
      ...(prefs === undefined ? {} : { prefs }),
      runId,
    });
  } catch (error) {
    if (error instanceof MeasureError || error instanceof DuplicateDocumentError || error instanceof PrefsError) throw new CliError(error.message);
    throw error;
  }
  if (result.queries.length === 0) throw new CliError('no queries with both results and relevance info');
  if (result.skipped.length > 0) {
    io.err(`trec-eval: not implemented, left out: ${result.skipped.join(' ')}\n`);
  }
  io.out(options.json ? `${JSON.stringify(toJson(result, options))}\n` : formatTrecEval(result, options));
}

/** The JSON form: the same rows as the text output, as numbers. */
function toJson(result: EvalResult, options: Pick<TrecEvalArgs, 'perQuery' | 'summary'>): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (result.runId !== undefined) json.runid = result.runId;
  json.measures = result.columns.map((column) => column.name);
  if (options.perQuery) {
    const queries: Record<string, Record<string, number | string>> = Object.create(null) as Record<string, Record<string, number | string>>;
    const columns = result.columns.filter((column) => column.perQuery);
    for (const query of result.queries) {
      if (!query.inRun) continue;
      queries[query.qid] = Object.fromEntries(columns.map((c) => [c.name, c.text ? query.texts[c.name]! : query.values[c.name]!]));
    }
    json.queries = queries;
  }
  if (options.summary) json.all = result.all;
  return json;
}

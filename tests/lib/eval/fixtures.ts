import { readFileSync } from 'node:fs';
import type { Hit, Qrels, Run } from '../../../src/lib/types.ts';

/** Text as the byte source the parsers read, optionally cut into chunks of `chunkSize` bytes. */
export async function* bytesOf(text: string, chunkSize = Infinity): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let start = 0; start < bytes.length; start += chunkSize) yield bytes.subarray(start, start + chunkSize);
}

/** Qrels from `{ qid: { docId: grade } }`. */
export function qrelsOf(judgments: Record<string, Record<string, number>>): Qrels {
  return new Map(Object.entries(judgments).map(([qid, docs]) => [qid, new Map(Object.entries(docs))]));
}

/** A run from `{ qid: [[docId, score], …] }`. */
export function runOf(rankings: Record<string, Array<[string, number]>>): Run {
  return new Map(Object.entries(rankings).map(([qid, hits]) => [qid, hits.map(([docId, score]): Hit => ({ docId, score }))]));
}

/** Lines of a trec_eval output file, without the trailing empty line. */
export function outputLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
}

/** The measure name of a trec_eval output line (the first, space-padded column). */
export function nameOf(line: string): string {
  return line.split('\t')[0]!.trimEnd();
}

/**
 * The reference files of trec_eval 9.0.8's test suite (shared/trec_eval/9.0.8) and the command that produced
 * each, from shared/trec_eval/README.md (the `make quicktest` commands of trec_eval's Makefile): `cliArgs`
 * are those options verbatim (`-Z file` is added from `zscores`), `measures` etc. the same as `evaluate` options;
 * `output` is relative to shared/trec_eval/9.0.8.
 */
export interface ReferenceRun {
  output: string;
  qrels: string;
  run: string;
  cliArgs: readonly string[];
  perQuery: boolean;
  measures: readonly string[];
  complete?: boolean;
  maxDocs?: number;
  relevanceLevel?: number;
  /** A zscores file, relative to shared/trec_eval. */
  zscores?: string;
  /** `-R`: the qrels file holds judgment groups or preferences (`qrels_prefs`: a qrels file read as preferences). */
  relFormat?: 'qrels_jg' | 'prefs' | 'qrels_prefs';
}

const ALL_TREC = ['-m', 'all_trec'];

export const REFERENCE_RUNS: readonly ReferenceRun[] = [
  // trec_eval qrels.test results.test > out.test
  { output: 'out.test', qrels: 'qrels.test', run: 'results.test', measures: ['official'], cliArgs: [], perQuery: false },
  // trec_eval -m all_trec qrels.test results.test > out.test.a
  { output: 'out.test.a', qrels: 'qrels.test', run: 'results.test', measures: ['all_trec'], cliArgs: ALL_TREC, perQuery: false },
  // trec_eval -m all_trec -q qrels.test results.test > out.test.aq
  { output: 'out.test.aq', qrels: 'qrels.test', run: 'results.test', measures: ['all_trec'], cliArgs: [...ALL_TREC, '-q'], perQuery: true },
  // trec_eval -m all_trec -q -c qrels.test results.trunc > out.test.aqc
  {
    output: 'out.test.aqc', qrels: 'qrels.test', run: 'results.trunc', measures: ['all_trec'], complete: true,
    cliArgs: [...ALL_TREC, '-q', '-c'], perQuery: true,
  },
  // trec_eval -m all_trec -q -c -M100 qrels.test results.trunc > out.test.aqcM
  {
    output: 'out.test.aqcM', qrels: 'qrels.test', run: 'results.trunc', measures: ['all_trec'], complete: true, maxDocs: 100,
    cliArgs: [...ALL_TREC, '-q', '-c', '-M100'], perQuery: true,
  },
  // trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test > out.test.aql
  {
    output: 'out.test.aql', qrels: 'qrels.rel_level', run: 'results.test', measures: ['all_trec', 'relstring.20'], relevanceLevel: 2,
    cliArgs: [...ALL_TREC, '-mrelstring.20', '-q', '-l2'], perQuery: true,
  },
  // trec_eval -q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35
  //   -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20
  //   qrels.test results.test > out.test.meas_params
  {
    output: 'out.test.meas_params', qrels: 'qrels.test', run: 'results.test',
    measures: [
      'iprec_at_recall..10,.20,.25,.75,.50', 'P.5,7,3', 'recall.20,2000', 'Rprec_mult.5.0,0.2,0.35', 'utility.2,-1,0,0',
      '11pt_avg..25,.5,.75', 'ndcg.1=3,2=9,4=4.5', 'ndcg_cut.10,20,23.4', 'success.2,5,20',
    ],
    cliArgs: [
      '-q', '-miprec_at_recall..10,.20,.25,.75,.50', '-m', 'P.5,7,3', '-m', 'recall.20,2000', '-m', 'Rprec_mult.5.0,0.2,0.35',
      '-mutility.2,-1,0,0', '-m', '11pt_avg..25,.5,.75', '-mndcg.1=3,2=9,4=4.5', '-mndcg_cut.10,20,23.4', '-msuccess.2,5,20',
    ],
    perQuery: true,
  },
  // trec_eval -q -m all_trec -Z 9.0.8/zscores_file qrels.test results.test > out.test.aqZ
  {
    output: 'out.test.aqZ', qrels: 'qrels.test', run: 'results.test', measures: ['all_trec'], zscores: '9.0.8/zscores_file',
    cliArgs: ['-q', ...ALL_TREC], perQuery: true,
  },
  // trec_eval -m qrels_jg -q -R qrels_jg qrels.123 results.test > out.test.qrels_jg
  {
    output: 'out.test.qrels_jg', qrels: 'qrels.123', run: 'results.test', measures: ['qrels_jg'], relFormat: 'qrels_jg',
    cliArgs: ['-m', 'qrels_jg', '-q', '-R', 'qrels_jg'], perQuery: true,
  },
  // trec_eval -m all_prefs -q -R prefs prefs.test prefs.results.test > out.test.prefs
  {
    output: 'out.test.prefs', qrels: 'prefs.test', run: 'prefs.results.test', measures: ['all_prefs'], relFormat: 'prefs',
    cliArgs: ['-m', 'all_prefs', '-q', '-R', 'prefs'], perQuery: true,
  },
  // trec_eval -m all_prefs -q -R qrels_prefs qrels.test results.test > out.test.qrels_prefs
  {
    output: 'out.test.qrels_prefs', qrels: 'qrels.test', run: 'results.test', measures: ['all_prefs'], relFormat: 'qrels_prefs',
    cliArgs: ['-m', 'all_prefs', '-q', '-R', 'qrels_prefs'], perQuery: true,
  },
];

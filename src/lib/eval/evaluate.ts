import type { QrelsJg } from '../data/trec.ts';
import type { Prefs } from '../data/trec-prefs.ts';
import type { Qrels } from '../types.ts';
import { averagePrecision, averagePrecisionAt, yaap } from './average-precision.ts';
import { cappedRecallAt, holeAt } from './beir-measures.ts';
import { bpref, inferredAveragePrecision } from './bpref.ts';
import { binaryG, gainG, ndcgRel, rNdcg } from './gain-measures.ts';
import { elevenPointAverage, interpolatedPrecisionAt, precisionAtRMultiples } from './interpolated-precision.ts';
import { judgedAt } from './judged.ts';
import { judgedOnly, judgeRanking, type JudgedRanking } from './judged-ranking.ts';
import { MeasureError, measureDefinition, measureNames, resolveMeasures, type MeasureFamily, type MeasureSpec } from './measure-spec.ts';
import { ndcg, ndcgAt } from './ndcg.ts';
import { precisionAt, relativePrecisionAt } from './precision.ts';
import { rPrecision } from './r-precision.ts';
import { isPrefsMeasure, prefsMeasure } from './prefs-measures.ts';
import { countPreferences } from './prefs-counts.ts';
import { compareStrcmp, compareTrecPrefsHits, rankForEvaluation } from '../hits/trec-order.ts';
import { recallAt } from './recall.ts';
import { reciprocalRank } from './reciprocal-rank.ts';
import { relString } from './relstring.ts';
import { rankedLength, type RankedRun } from '../hits/row-ranking.ts';
import { nonrelevantJudgedRetrieved, setAveragePrecision, setF, setPrecision, setRecall, setRelativePrecision, utility } from './set-measures.ts';
import { successAt } from './success.ts';
import { propagateNaN } from './nan-sign.ts';
import { toZScore, type ZScores } from './zscores.ts';

/**
 * Evaluates a run against qrels with trec_eval 9.0.8's semantics (trec_eval.c main loop, meas_acc.c,
 * meas_avg.c):
 * - queries are taken from the qrels in `strcmp` order of their ids (the order of `-q` rows); a query of
 *   the run that has no judgments is ignored; a judged query the run lacks (or has no hits for) is
 *   skipped, unless `complete` (`-c`), in which case it is not computed but contributes 0 to every mean
 *   (log(0.00001) to a geometric one) and gets no per-query row; its `num_rel` value still holds its
 *   relevant count for callers, and the `num_rel` summary then counts every judgment with grade > 0 in the
 *   qrels, as m_num_rel.c does;
 * - a judged query is evaluated even when it has no relevant document (most measures are then 0);
 * - each ranking is re-sorted by score, ties by decreasing document id, then cut to `maxDocs` (`-M`), then
 *   (with `judgedDocsOnly`, `-J`) stripped of unjudged documents;
 * - with `prefs` (`-R prefs`, `-R qrels_prefs`) the judged queries are those of the preferences and the
 *   ranking is re-sorted with ties by INCREASING document id, as form_prefs_counts.c does (prefs-counts.ts);
 *   `-J` and the relevance level do not apply to it;
 * - with `zscores` (`-Z`) every per-query value is replaced by its z-score before the summaries are formed;
 * - the aggregate ("all") follows each measure's summary kind (measure-spec.ts): sums for the counts, `num_q` the
 *   number of queries, geometric means for gm_*, else the mean over evaluated queries (accumulated in query
 *   order, then divided once, as trec_eval does).
 */

export interface EvaluateOptions {
  /** trec_eval measure strings or parsed specs; nicknames allowed. Default: trec_eval's `official`. */
  measures?: ReadonlyArray<string | MeasureSpec>;
  /** Minimum grade of a relevant document (`-l`). Default 1. */
  relevanceLevel?: number;
  /** Average over every qrels query, absent ones counting 0 (`-c`). Default false. */
  complete?: boolean;
  /** Evaluate only the first N documents of each ranking (`-M`). Default: all. */
  maxDocs?: number;
  /** Drop retrieved documents that are not judged before computing anything (`-J`). Default false. */
  judgedDocsOnly?: boolean;
  /** Number of documents in the collection (`-N`), used by `utility`. Default 0, as trec_eval. */
  numDocsInCollection?: number;
  /** Means and standard deviations to print z-scores instead of raw values (`-Z`). */
  zscores?: ZScores;
  /** What the `runid` measure prints (trec_eval: the tag of the run file's last line). */
  runId?: string;
  /**
   * Judgment groups (`-R qrels_jg`) for the *_avgjg measures, which average over a query's groups. With
   * them, `qrels` only gives the list of judged queries and measures reading ordinary qrels are refused,
   * as trec_eval refuses them on a qrels_jg file.
   */
  judgmentGroups?: QrelsJg;
  /**
   * Preference judgments (`-R prefs`, `-R qrels_prefs`) for the prefs_* measures. With them, the judged
   * queries are those of the preferences, `qrels` is not read, and measures reading qrels are refused.
   */
  prefs?: Prefs;
}

/** One printed value column: `P_5`, `ndcg`, `num_rel`, `relstring`… */
export interface EvalColumn {
  name: string;
  family: MeasureFamily;
  /** Printed as an integer (`%ld`) rather than with 4 decimals (unless z-scores are printed). */
  integer: boolean;
  /** A string per query (relstring), held in `QueryEvaluation.texts`, with no summary. */
  text: boolean;
  /** Printed in per-query rows (not `num_q`, `gm_map`, `gm_bpref`). */
  perQuery: boolean;
  /** Printed in the summary ("all") rows (not `relstring`). */
  summary: boolean;
}

export interface QueryEvaluation {
  qid: string;
  /** False for a qrels query absent from the run, evaluated only under `complete`; not printed by -q. */
  inRun: boolean;
  /** Value per numeric column name (for gm_* the log that the geometric mean averages). */
  values: Record<string, number>;
  /** Value per text column name (relstring). */
  texts: Record<string, string>;
  /** Names of the values that are a NaN trec_eval prints `nan`, not `-nan` (nan-sign.ts); absent when none. */
  positiveNaN?: string[];
}

export interface EvalResult {
  /** Printed columns in output order (`runid` is not one). */
  columns: EvalColumn[];
  /** Evaluated queries in output order. */
  queries: QueryEvaluation[];
  /** The aggregate row, keyed by column name (summary columns only). */
  all: Record<string, number>;
  /** Names of the aggregate values that are a NaN printed `nan`, not `-nan`. */
  allPositiveNaN: string[];
  /** Set when the `runid` measure was requested. */
  runId: string | undefined;
  /** Names that nicknames such as `all_trec` stand for but that are not implemented. */
  skipped: string[];
  /** Values are z-scores (`-Z`): trec_eval then prefixes names with Z and prints every value with 4 decimals. */
  zscore: boolean;
}

/** trec_eval's MIN_GEO_MEAN: the floor of a value before its log is taken for a geometric mean. */
const MIN_GEO_MEAN = 0.00001;

export function evaluate(qrels: Qrels, run: RankedRun, options: EvaluateOptions = {}): EvalResult {
  const { measures, skipped } = resolveMeasures(options.measures ?? ['official']);
  const relevanceLevel = options.relevanceLevel ?? 1;
  const complete = options.complete ?? false;
  const maxDocs = options.maxDocs ?? Infinity;
  const numeric = measures.filter((spec) => spec.family !== 'runid');
  for (const spec of numeric) {
    const input = measureDefinition(spec.family).input ?? 'qrels';
    if (input === 'qrels_jg' && options.judgmentGroups === undefined) {
      throw new MeasureError(`measure '${spec.family}' needs judgment groups (trec_eval -R qrels_jg)`);
    }
    if (input === 'prefs' && options.prefs === undefined) {
      throw new MeasureError(`measure '${spec.family}' needs preference judgments (trec_eval -R prefs or -R qrels_prefs)`);
    }
    if (input !== 'prefs' && input !== 'any' && options.prefs !== undefined) {
      throw new MeasureError(`measure '${spec.family}' cannot be computed from preference judgments (-R prefs, -R qrels_prefs)`);
    }
    if (input === 'qrels' && options.judgmentGroups !== undefined) {
      throw new MeasureError(`measure '${spec.family}' needs ordinary qrels, not judgment groups (-R qrels_jg)`);
    }
  }
  const columns = numeric.flatMap((spec) => {
    const definition = measureDefinition(spec.family);
    return measureNames(spec).map((name) => ({
      name,
      family: spec.family,
      integer: definition.value === 'integer',
      text: definition.value === 'text',
      perQuery: definition.perQuery,
      summary: definition.summary !== 'none',
    }));
  });
  const context: MeasureContext = {
    annotated: measures.some((spec) => spec.family === 'Hole') ? annotatedDocuments(qrels) : new Set<string>(),
    numDocsInCollection: options.numDocsInCollection ?? 0,
  };

  const judgedQueries = [...(options.prefs ?? qrels).keys()].sort(compareStrcmp);
  const queries: QueryEvaluation[] = [];
  for (const qid of judgedQueries) {
    const hits = run.get(qid);
    const inRun = hits !== undefined && rankedLength(hits) > 0;
    if (!inRun && !complete) continue;
    const values: Record<string, number> = {};
    const texts: Record<string, string> = {};
    if (!inRun) {
      // trec_eval computes nothing for a query the run lacks: it only counts in the divisor under -c.
      for (const column of columns) if (!column.text && column.family !== 'num_q') values[column.name] = 0;
      if ('num_rel' in values) values.num_rel = judgeRanking([], qrels.get(qid), relevanceLevel).numRel;
      queries.push({ qid, inRun, values, texts });
      continue;
    }
    if (options.prefs !== undefined) {
      // form_prefs_counts.c ranks ties by increasing document id, unlike the other measures.
      const counts = countPreferences(rankForEvaluation(qid, hits, maxDocs, compareTrecPrefsHits), options.prefs.get(qid)!);
      for (const spec of numeric) if (isPrefsMeasure(spec.family)) values[spec.family] = prefsMeasure(spec.family, counts);
    } else if (options.judgmentGroups !== undefined) {
      const docIds = rankForEvaluation(qid, hits, maxDocs);
      const byName = [...(options.judgmentGroups.get(qid) ?? [])].sort(([a], [b]) => compareStrcmp(a, b));
      const groups = byName.map(([, judgments]) => judgments);
      for (const spec of numeric) {
        if (spec.family === 'num_q') continue;
        const names = measureNames(spec);
        averageOverGroups(groups, (judgments) => {
          const judged = judgeRanking(docIds, judgments, relevanceLevel);
          return computeMeasure(spec, options.judgedDocsOnly ? judgedOnly(judged) : judged, docIds, context);
        }).forEach((value, i) => {
          values[names[i]!] = value;
        });
      }
    } else {
      let docIds = rankForEvaluation(qid, hits, maxDocs);
      let judged = judgeRanking(docIds, qrels.get(qid), relevanceLevel);
      if (options.judgedDocsOnly) {
        const grades = judged.grades;
        docIds = docIds.filter((_, i) => grades[i]! >= 0);
        judged = judgedOnly(judged);
      }
      for (const spec of numeric) {
        if (spec.family === 'num_q') continue;
        const names = measureNames(spec);
        if (spec.family === 'relstring') {
          texts[names[0]!] = relString(judged, spec.numbers![0] ?? 0);
          continue;
        }
        computeMeasure(spec, judged, docIds, context).forEach((value, i) => {
          values[names[i]!] = value;
        });
      }
    }
    const positiveNaN: string[] = [];
    if (options.zscores !== undefined) {
      for (const name of Object.keys(values)) {
        const z = toZScore(options.zscores, qid, name, values[name]!);
        values[name] = z.value;
        if (z.positiveNaN) positiveNaN.push(name);
      }
    }
    queries.push({ qid, inRun, values, texts, ...(positiveNaN.length > 0 ? { positiveNaN } : {}) });
  }

  const all: Record<string, number> = {};
  const allPositiveNaN: string[] = [];
  const evaluated = queries.filter((query) => query.inRun);
  const divisor = complete ? judgedQueries.length : queries.length;
  for (const column of columns) {
    const summary = measureDefinition(column.family).summary;
    if (summary === 'none') continue;
    if (summary === 'count') {
      all[column.name] = queries.length;
      continue;
    }
    if (column.family === 'num_rel' && complete) {
      all[column.name] = positiveJudgments(qrels);
      continue;
    }
    let sum = 0;
    let sumPositiveNaN = false;
    for (const query of evaluated) {
      const value = query.values[column.name]!;
      // meas_acc.c's `sum += value` as 9.0.8's build compiles it: a NaN value replaces a NaN sum.
      sumPositiveNaN = propagateNaN(value, query.positiveNaN?.includes(column.name) ?? false, sum, sumPositiveNaN);
      sum += value;
    }
    if (sumPositiveNaN) allPositiveNaN.push(column.name);
    if (summary === 'sum') {
      all[column.name] = sum;
    } else if (summary === 'geometric') {
      // meas_avg.c te_calc_avg_meas_s_gm: absent queries are patched in after the sum.
      if (complete) sum += (divisor - evaluated.length) * Math.log(MIN_GEO_MEAN);
      all[column.name] = divisor > 0 ? Math.exp(sum / divisor) : sum;
    } else {
      all[column.name] = divisor > 0 ? sum / divisor : sum;
    }
  }

  const runId = measures.some((spec) => spec.family === 'runid') ? (options.runId ?? '') : undefined;
  return { columns, queries, all, allPositiveNaN, runId, skipped, zscore: options.zscores !== undefined };
}

interface MeasureContext {
  /** Every judged document id (Hole). */
  annotated: ReadonlySet<string>;
  numDocsInCollection: number;
}

/** log(MAX(v, MIN_GEO_MEAN)) with C's macro `(a > b ? a : b)`, which turns a NaN into MIN_GEO_MEAN. */
function geometricTerm(value: number): number {
  return Math.log(value > MIN_GEO_MEAN ? value : MIN_GEO_MEAN);
}

/** Values of one measure for one query, in the order of `measureNames(spec)`. */
function computeMeasure(spec: MeasureSpec, judged: JudgedRanking, docIds: readonly string[], context: MeasureContext): number[] {
  const cutoffs = spec.cutoffs ?? [];
  const numbers = spec.numbers ?? [];
  const gains = spec.gains ?? [];
  switch (spec.family) {
    case 'num_ret':
      return [judged.numRet];
    case 'num_rel':
      return [judged.numRel];
    case 'num_rel_ret':
      return [judged.numRelRet];
    case 'map':
      return [averagePrecision(judged)];
    case 'gm_map':
      return [geometricTerm(averagePrecision(judged))];
    case 'Rprec':
      return [rPrecision(judged)];
    case 'bpref':
      return [bpref(judged)];
    case 'recip_rank':
      return [reciprocalRank(judged)];
    case 'iprec_at_recall':
      return interpolatedPrecisionAt(judged, numbers);
    case 'P':
      return precisionAt(judged, cutoffs);
    case 'recall':
      return recallAt(judged, cutoffs);
    case 'infAP':
      return [inferredAveragePrecision(judged)];
    case 'gm_bpref':
      return [geometricTerm(bpref(judged))];
    case 'Rprec_mult':
      return precisionAtRMultiples(judged, numbers);
    case 'utility':
      return [utility(judged, numbers, context.numDocsInCollection)];
    case '11pt_avg':
      return [elevenPointAverage(judged, numbers)];
    case 'binG':
      return [binaryG(judged)];
    case 'G':
      return [gainG(judged, gains)];
    case 'ndcg':
      return [ndcg(judged, gains)];
    case 'ndcg_rel':
      return [ndcgRel(judged, gains)];
    case 'Rndcg':
      return [rNdcg(judged, gains)];
    case 'ndcg_cut':
      return ndcgAt(judged, cutoffs);
    case 'map_cut':
      return averagePrecisionAt(judged, cutoffs);
    case 'relative_P':
      return relativePrecisionAt(judged, cutoffs);
    case 'success':
      return successAt(judged, cutoffs);
    case 'set_P':
      return [setPrecision(judged)];
    case 'set_relative_P':
      return [setRelativePrecision(judged)];
    case 'set_recall':
      return [setRecall(judged)];
    case 'set_map':
      return [setAveragePrecision(judged)];
    case 'set_F':
      return [setF(judged, numbers[0] ?? 1)];
    case 'num_nonrel_judged_ret':
      return [nonrelevantJudgedRetrieved(judged)];
    case 'map_avgjg':
      return [averagePrecision(judged)];
    case 'P_avgjg':
      return precisionAt(judged, cutoffs);
    case 'Rprec_mult_avgjg':
      return precisionAtRMultiples(judged, numbers);
    case 'yaap':
      return [yaap(judged)];
    case 'R_cap':
      return cappedRecallAt(judged, cutoffs);
    case 'Hole':
      return holeAt(docIds, context.annotated, cutoffs);
    case 'judged':
      return judgedAt(judged, cutoffs);
    default:
      throw new Error(`no kernel for measure '${spec.family}'`);
  }
}

/**
 * form_res_rels_jg.c and the *_avgjg measures: the measure summed over the query's judgment groups (strcmp
 * order of the group names) and divided by their number when there are several.
 */
function averageOverGroups(groups: ReadonlyArray<ReadonlyMap<string, number>>, compute: (judgments: ReadonlyMap<string, number>) => number[]): number[] {
  let sums: number[] | undefined;
  for (const judgments of groups) {
    const values = compute(judgments);
    sums = sums === undefined ? values : sums.map((sum, i) => sum + values[i]!);
  }
  if (sums === undefined) return [];
  return groups.length > 1 ? sums.map((sum) => sum / groups.length) : sums;
}

/** Judgments with grade > 0 over every query (m_num_rel.c's summary under -c, whatever `-l`). */
function positiveJudgments(qrels: Qrels): number {
  let count = 0;
  for (const judgments of qrels.values()) for (const grade of judgments.values()) if (grade > 0) count++;
  return count;
}

/** Every document id judged for any query (BEIR's `annotated_corpus`, used by Hole@k). */
function annotatedDocuments(qrels: Qrels): Set<string> {
  const ids = new Set<string>();
  for (const judgments of qrels.values()) for (const docId of judgments.keys()) ids.add(docId);
  return ids;
}

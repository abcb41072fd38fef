import type { Qrels, Run } from '../types.ts';
import { averagePrecision, averagePrecisionAt } from './average-precision.ts';
import { cappedRecallAt, holeAt } from './beir-measures.ts';
import { judgeRanking, type JudgedRanking } from './judged-ranking.ts';
import { measureNames, resolveMeasures, type MeasureFamily, type MeasureSpec } from './measure-spec.ts';
import { ndcg, ndcgAt } from './ndcg.ts';
import { precisionAt } from './precision.ts';
import { rPrecision } from './r-precision.ts';
import { compareStrcmp, rankForEvaluation } from './ranking.ts';
import { recallAt } from './recall.ts';
import { reciprocalRank } from './reciprocal-rank.ts';
import { successAt } from './success.ts';

/**
 * Evaluates a run against qrels with trec_eval 9.0.8's semantics (trec_eval.c main loop, meas_acc.c,
 * meas_avg.c):
 * - queries are taken from the qrels in `strcmp` order of their ids (the order of `-q` rows); a query of
 *   the run that has no judgments is ignored; a judged query the run lacks (or has no hits for) is
 *   skipped, unless `complete` (`-c`), in which case it scores 0 on every measure — except `num_rel`,
 *   which still counts its relevant documents — and is averaged in, but gets no per-query row;
 * - a judged query is evaluated even when it has no relevant document (most measures are then 0);
 * - each ranking is re-sorted by score, ties by decreasing document id, then cut to `maxDocs` (`-M`);
 * - the aggregate ("all") of `num_ret`, `num_rel`, `num_rel_ret` is the sum over queries, `num_q` the
 *   number of queries evaluated, every other value the mean over evaluated queries (accumulated in query
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
  /** What the `runid` measure prints (trec_eval: the tag of the run file's last line). */
  runId?: string;
}

/** One printed value column: `P_5`, `ndcg`, `num_rel`… */
export interface EvalColumn {
  name: string;
  family: MeasureFamily;
  /** Printed as an integer (`%ld`) rather than with 4 decimals. */
  integer: boolean;
  /** Printed in per-query rows (`num_q` and `runid` only appear in the summary). */
  perQuery: boolean;
}

export interface QueryEvaluation {
  qid: string;
  /** False for a qrels query absent from the run, evaluated only under `complete`; not printed by -q. */
  inRun: boolean;
  /** Value per column name (per-query columns only). */
  values: Record<string, number>;
}

export interface EvalResult {
  /** Numeric columns in output order (`runid` is not one). */
  columns: EvalColumn[];
  /** Evaluated queries in output order. */
  queries: QueryEvaluation[];
  /** The aggregate row, keyed by column name. */
  all: Record<string, number>;
  /** Set when the `runid` measure was requested. */
  runId: string | undefined;
  /** Names that nicknames such as `all_trec` stand for but that are not implemented. */
  skipped: string[];
}

const INTEGER_FAMILIES: ReadonlySet<MeasureFamily> = new Set(['num_q', 'num_ret', 'num_rel', 'num_rel_ret']);
const SUMMED_FAMILIES: ReadonlySet<MeasureFamily> = new Set(['num_ret', 'num_rel', 'num_rel_ret']);

export function evaluate(qrels: Qrels, run: Run, options: EvaluateOptions = {}): EvalResult {
  const { measures, skipped } = resolveMeasures(options.measures ?? ['official']);
  const relevanceLevel = options.relevanceLevel ?? 1;
  const complete = options.complete ?? false;
  const maxDocs = options.maxDocs ?? Infinity;
  const numeric = measures.filter((spec) => spec.family !== 'runid');
  const columns = numeric.flatMap((spec) =>
    measureNames(spec).map((name) => ({
      name,
      family: spec.family,
      integer: INTEGER_FAMILIES.has(spec.family),
      perQuery: spec.family !== 'num_q',
    })),
  );
  const annotated = measures.some((spec) => spec.family === 'Hole') ? annotatedDocuments(qrels) : new Set<string>();

  const queries: QueryEvaluation[] = [];
  for (const qid of [...qrels.keys()].sort(compareStrcmp)) {
    const hits = run.get(qid);
    const inRun = hits !== undefined && hits.length > 0;
    if (!inRun && !complete) continue;
    const docIds = inRun ? rankForEvaluation(qid, hits, maxDocs) : [];
    const judged = judgeRanking(docIds, qrels.get(qid), relevanceLevel);
    const values: Record<string, number> = {};
    for (const spec of numeric) {
      if (spec.family === 'num_q') continue;
      const names = measureNames(spec);
      computeMeasure(spec, judged, docIds, annotated).forEach((value, i) => {
        values[names[i]!] = value;
      });
    }
    queries.push({ qid, inRun, values });
  }

  const all: Record<string, number> = {};
  const divisor = complete ? qrels.size : queries.length;
  for (const column of columns) {
    if (column.family === 'num_q') {
      all[column.name] = queries.length;
      continue;
    }
    let sum = 0;
    for (const query of queries) sum += query.values[column.name]!;
    all[column.name] = SUMMED_FAMILIES.has(column.family) || divisor === 0 ? sum : sum / divisor;
  }

  const runId = measures.some((spec) => spec.family === 'runid') ? (options.runId ?? '') : undefined;
  return { columns, queries, all, runId, skipped };
}

/** Values of one measure for one query, in the order of `measureNames(spec)`. */
function computeMeasure(
  spec: MeasureSpec,
  judged: JudgedRanking,
  docIds: readonly string[],
  annotated: ReadonlySet<string>,
): number[] {
  switch (spec.family) {
    case 'num_ret':
      return [judged.numRet];
    case 'num_rel':
      return [judged.numRel];
    case 'num_rel_ret':
      return [judged.numRelRet];
    case 'map':
      return [averagePrecision(judged)];
    case 'Rprec':
      return [rPrecision(judged)];
    case 'recip_rank':
      return [reciprocalRank(judged)];
    case 'P':
      return precisionAt(judged, spec.cutoffs);
    case 'recall':
      return recallAt(judged, spec.cutoffs);
    case 'ndcg':
      return [ndcg(judged, spec.gains)];
    case 'ndcg_cut':
      return ndcgAt(judged, spec.cutoffs);
    case 'map_cut':
      return averagePrecisionAt(judged, spec.cutoffs);
    case 'success':
      return successAt(judged, spec.cutoffs);
    case 'R_cap':
      return cappedRecallAt(judged, spec.cutoffs);
    case 'Hole':
      return holeAt(docIds, annotated, spec.cutoffs);
    case 'num_q':
    case 'runid':
      return [];
  }
}

/** Every document id judged for any query (BEIR's `annotated_corpus`, used by Hole@k). */
function annotatedDocuments(qrels: Qrels): Set<string> {
  const ids = new Set<string>();
  for (const judgments of qrels.values()) for (const docId of judgments.keys()) ids.add(docId);
  return ids;
}

/**
 * The dashboard's results: for each Explore column, the run of every query of the split with its
 * current settings, its metrics, and what it cost. Runs are made with the shared engine (indexes and
 * embeddings built for Explore are reused), two columns side by side (side-by-side.ts), each with a job in
 * the tray whose cancel button stops the whole evaluation; they are stored in IndexedDB (src/lib/storage/evaluation-runs.ts) with their
 * metrics and read back on the next visit, so nothing is ranked again after a reload.
 *
 * A column whose settings changed since its run shows that run as stale until it is evaluated again (or
 * until its settings come back to ones already evaluated); so does a run of other queries than the split's
 * judged ones now (a query judged, added or rephrased since). A judgment made in Explore changes the
 * scope's judgments: the stored runs' metrics are then computed again on them (and stored).
 */
import { packRun, storedRun } from '../../lib/data/packed-run.ts';
import { condenseRun, judgedAtK, type JudgedCoverage } from '../../lib/eval/judged.ts';
import type { RankedRun } from '../../lib/hits/row-ranking.ts';
import { summarizeLatency, timesFromProgress } from '../../lib/eval/latency.ts';
import { evaluateRunReport, type RunReport } from '../../lib/eval/run-report.ts';
import { fileSlug } from '../../lib/eval/report-export.ts';
import { qrelsFingerprint, queriesFingerprint } from '../../lib/judging/fingerprints.ts';
import { preparedSettings, RUN_DEPTH, retrieverLabel, type ColumnConfig, type RetrieverConfig } from '../../lib/retrievers/config.ts';
import { database, type RunRow } from '../../lib/storage/db.ts';
import {
  deleteEvaluations,
  evaluationKey,
  loadEvaluations,
  saveEvaluation,
  timingsOf,
  type EfficiencyRecord,
  type EvaluationRow,
} from '../../lib/storage/evaluation-runs.ts';
import { findRunRow, runOfRow, trecTextOfRow } from '../../lib/storage/runs.ts';
import type { Qrels, Query } from '../../lib/types.ts';
import { engine, rankQueriesWithJob } from '../engine/engine.ts';
import { LatestThrottle } from '../shell/latest-throttle.ts';
import { PROGRESS_INTERVAL_MS } from '../shell/jobs.svelte.ts';
import { whenIdle } from '../shell/when-idle.ts';
import { sideBySide } from './side-by-side.ts';
import { sharesWorker } from './column-workers.ts';
import { notices } from '../shell/notices.svelte.ts';
import { bm25Efficiency, denseEfficiency, rerankEfficiency } from './efficiency-probe.ts';
import { evaluableQueries } from '../../lib/augment/splits.ts';
import { missingModelMessage } from '../../lib/services/augment-service.ts';
import { storedAugmentModels, trainingCollectionName } from '../columns/augment-models.svelte.ts';
import { collections } from '../collection/collections.svelte.ts';

export interface ColumnEvaluation {
  key: string;
  retriever: RetrieverConfig;
  tag: string;
  /** Metrics; undefined when the split has no judgments. */
  report: RunReport | undefined;
  /** judged@10 per judged query and its mean (trec_eval -c); undefined without judgments. */
  judged?: JudgedCoverage | undefined;
  /** Metrics on condensed lists: unjudged documents removed before scoring (the "judged only" mode). */
  condensedReport?: RunReport | undefined;
  queries: number;
  missing: string[];
  efficiency: EfficiencyRecord;
  createdAt: number;
  /** Read back from IndexedDB (made in an earlier visit or before a reload). */
  fromStorage: boolean;
  /** Fingerprint of the queries the run ranked (undefined for rows made before it was kept). */
  queriesKey?: string | undefined;
  /** A run of the split's held-out share only (EvaluationRow.heldOut). */
  heldOut?: { note: string; splitQueriesKey: string } | undefined;
}

export type ColumnResult =
  /** `refusal`: why the column cannot be evaluated on this split (an Augmented BM25 model's training split). */
  | { status: 'none'; refusal?: string }
  | { status: 'fresh'; evaluation: ColumnEvaluation }
  /** The column's settings changed since this run was made. */
  | { status: 'stale'; evaluation: ColumnEvaluation };

export interface EvaluationScope {
  collectionId: string;
  /** `createdAt` of the collection row (changes when it is imported again). */
  collectionVersion: number;
  split: string;
  /** The split's judgments; undefined when it has none (runs are made, metrics are not). */
  qrels: Qrels | undefined;
  /** Fingerprint of the queries an evaluation ranks now (queriesFingerprint of the judged queries). */
  queriesKey?: string;
}

export interface RunProgress {
  /** 0-based index of the column being evaluated among those to evaluate, and how many there are. */
  step: number;
  steps: number;
  label: string;
  phase: 'preparing' | 'ranking' | 'evaluating';
  detail: string;
  done: number;
  total: number;
}

/** The run tag of a column: its kind (as the CLI writes it), or an imported run's name. */
/**
 * Queries per worker call in an evaluation (7 progress steps for SciFact's 300 test queries): a multiple of
 * the 16 queries the exact dense scan takes per pass.
 */
export const EVALUATION_CHUNK = 48;

/**
 * Columns ranked at once: two cores' worth, so a BM25 column ranks in its worker while a dense column scans
 * in another (a free lane prefers a column whose workers are free); more would only share the same workers
 * and cores.
 */
export const COLUMNS_SIDE_BY_SIDE = 2;

/** Runs made in the page kept in memory for runOf (a SciFact run: 300,000 hits). */
const RUNS_KEPT = 8;

/** Prefix of the user-timing measures of an evaluation's parts (DevTools' Performance panel, bench:app). */
export const EVALUATION_MEASURE = 'evaluate';

/** A user-timing measure of one part of an evaluation, from `start` (performance.now()) to now. */
function measure(part: string, start: number): void {
  performance.measure(`${EVALUATION_MEASURE} · ${part}`, { start, end: performance.now() });
}

/** Finished columns wait at most this long before the dashboard shows them (the rest come at the end). */
const PUBLISH_INTERVAL_MS = 1_000;

/** A column's run before its metrics. */
interface RankedColumn {
  run: RankedRun;
  missing: string[];
  queries: number;
  /** Fingerprint of the ranked queries (a stored evaluation of other queries is outdated). */
  queriesKey: string;
  efficiency: EfficiencyRecord;
  /** Part of the split's queries only: their judgments, and EvaluationRow.heldOut. */
  part?: { qrels: Qrels; heldOut: { note: string; splitQueriesKey: string } };
}

/** What an Augmented BM25 column may be evaluated on: every query, a held-out part of them, or nothing. */
type EvaluableQueries = { refusal: string } | { queries: readonly Query[]; qrels: Qrels | undefined; note?: string };

/** `qrels` of the queries in `ids` only. */
function qrelsOf(qrels: Qrels, ids: ReadonlySet<string>): Qrels {
  return new Map([...qrels].filter(([qid]) => ids.has(qid)));
}

/** The values of the promises that fulfilled (the others' failures were reported elsewhere or do not matter). */
async function settledValues<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  return settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
}

export function runTag(retriever: RetrieverConfig): string {
  return retriever.kind === 'run' ? fileSlug(retriever.name) : retriever.kind;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The report holds exactly the judged queries of `qrels` (as every -c report on them does). */
function coversJudgments(report: RunReport, qrels: Qrels): boolean {
  return report.qids.length === qrels.size && report.qids.every((qid) => qrels.has(qid));
}

function coverageCovers(coverage: JudgedCoverage, qrels: Qrels): boolean {
  return coverage.perQuery.length === qrels.size && coverage.perQuery.every((q) => qrels.has(q.qid));
}

/** What the dashboard shows of a run on judgments: its metrics, judged@10 and its judged-only metrics. */
export interface JudgedReports {
  report: RunReport;
  judged: JudgedCoverage;
  condensedReport: RunReport;
}

/** Lets the page paint and take input between long computations on the main thread. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The three in turn, yielding to the page between them: on SciFact (300 queries × 1000 hits) one block
 * would freeze the progress bars and the Cancel button for about a second.
 */
export async function judgedReports(qrels: Qrels, run: RankedRun): Promise<JudgedReports> {
  const report = evaluateRunReport(qrels, run);
  await nextTask();
  const judged = judgedAtK(run, qrels, 10);
  await nextTask();
  const condensedReport = evaluateRunReport(qrels, condenseRun(run, qrels));
  return { report, judged, condensedReport };
}


class Evaluations {
  scope = $state.raw<EvaluationScope | null>(null);
  /** Results of the scope by evaluation key (current and earlier settings). */
  results = $state.raw<ReadonlyMap<string, ColumnEvaluation>>(new Map());
  /** Column id → key of its last evaluation in this page (to show it as stale after a settings change). */
  lastOfColumn = $state.raw<ReadonlyMap<string, string>>(new Map());
  /** Why a column was not evaluated on the scope, by evaluation key (an Augmented BM25 model's training split). */
  refusals = $state.raw<ReadonlyMap<string, string>>(new Map());
  /** Stored rows are being read. */
  loading = $state(false);
  /** One line per column being prepared, ranked or measured now (in column order); null when no evaluation runs. */
  progress = $state.raw<readonly RunProgress[] | null>(null);
  /** Wall time of reading the stored results at the last load (ms), for the status line. */
  loadedMs = $state<number | null>(null);
  #checked = new Set<string>();
  /** Runs made in this page, by evaluation key (runOf). */
  #made = new Map<string, RankedRun>();
  /** Writes of finished columns under way, by evaluation key (#store). */
  #saving = new Map<string, Promise<void>>();
  #controller: AbortController | undefined;
  #scopeVersion = 0;

  get running(): boolean {
    return this.progress !== null;
  }

  #scopeId(scope: EvaluationScope): string {
    return `${scope.collectionId}@${scope.collectionVersion}|${scope.split}`;
  }

  /** Switches to a collection and split (clearing results of another) and reads stored runs of these columns. */
  async sync(scope: EvaluationScope, columns: readonly ColumnConfig[]): Promise<void> {
    if (this.scope === null || this.#scopeId(this.scope) !== this.#scopeId(scope) || this.scope.qrels !== scope.qrels) {
      this.#controller?.abort(new DOMException('the collection or split changed', 'AbortError'));
      this.#scopeVersion += 1;
      this.scope = scope;
      this.results = new Map();
      this.#made.clear();
      this.lastOfColumn = new Map();
      this.refusals = new Map();
      this.#checked = new Set();
      this.loadedMs = null;
    } else if (this.scope.queriesKey !== scope.queriesKey) {
      // Queries judged, added or rephrased: the results stay, shown stale where they ranked other queries.
      this.scope = scope;
    }
    const version = this.#scopeVersion;
    this.#remember(scope, columns);
    const wanted = columns.map((c) => c.retriever).filter((r) => !this.#checked.has(evaluationKey(scope.collectionId, scope.split, r)));
    if (wanted.length === 0) return;
    for (const retriever of wanted) this.#checked.add(evaluationKey(scope.collectionId, scope.split, retriever));
    this.loading = true;
    const started = performance.now();
    try {
      const rows = await loadEvaluations(database(), scope.collectionId, scope.collectionVersion, scope.split, wanted);
      for (const row of rows.values()) {
        const evaluation = await this.#fromRow(row, scope.qrels);
        if (version !== this.#scopeVersion) return;
        if (!this.results.has(row.key)) this.results = new Map(this.results).set(row.key, evaluation);
      }
      if (rows.size > 0) this.loadedMs = performance.now() - started;
      this.#remember(scope, columns);
    } catch (error) {
      notices.error(error);
    } finally {
      if (version === this.#scopeVersion) this.loading = false;
    }
  }

  /** Each column's current result becomes the one it shows as stale after its settings change. */
  #remember(scope: EvaluationScope, columns: readonly ColumnConfig[]): void {
    let next: Map<string, string> | undefined;
    for (const column of columns) {
      const key = evaluationKey(scope.collectionId, scope.split, column.retriever);
      if (!this.results.has(key) || this.lastOfColumn.get(column.id) === key) continue;
      next ??= new Map(this.lastOfColumn);
      next.set(column.id, key);
    }
    if (next !== undefined) this.lastOfColumn = next;
  }

  /**
   * A stored row as a result; its metrics are computed again (and stored) when they were computed on other
   * judgments than these.
   */
  async #fromRow(row: EvaluationRow, splitQrels: Qrels | undefined): Promise<ColumnEvaluation> {
    let reports: JudgedReports | undefined;
    // A held-out run is measured on its own queries' judgments (those its report was made on).
    const qrels = row.heldOut !== undefined && splitQrels !== undefined && row.report !== undefined ? qrelsOf(splitQrels, new Set(row.report.qids)) : splitQrels;
    if (qrels !== undefined) {
      const { report, judged, condensedReport } = row;
      const judgmentsKey = qrelsFingerprint(qrels);
      const current =
        report !== undefined &&
        judged !== undefined &&
        condensedReport !== undefined &&
        coversJudgments(report, qrels) &&
        coversJudgments(condensedReport, qrels) &&
        coverageCovers(judged, qrels) &&
        row.judgmentsKey === judgmentsKey;
      if (current) {
        reports = { report, judged, condensedReport };
      } else {
        // Rows made before judged@10 existed, or on judgments changed since: their run is read once.
        reports = await judgedReports(qrels, await runOfRow(row, `${row.tag}.run`));
        await saveEvaluation(database(), { ...row, ...reports, judgmentsKey }).catch(() => undefined);
      }
    }
    return {
      key: row.key,
      retriever: row.retriever,
      tag: row.tag,
      report: reports?.report,
      judged: reports?.judged,
      condensedReport: reports?.condensedReport,
      queries: row.queries,
      missing: row.missing,
      efficiency: row.efficiency,
      createdAt: row.createdAt,
      fromStorage: true,
      queriesKey: row.queriesKey,
      heldOut: row.heldOut,
    };
  }

  /** What the dashboard has for a column now. */
  resultOf(column: ColumnConfig): ColumnResult {
    const scope = this.scope;
    if (scope === null) return { status: 'none' };
    const current = this.results.get(evaluationKey(scope.collectionId, scope.split, column.retriever));
    if (current !== undefined) {
      // A run of other queries (or texts) than those judged now: its numbers are not of this split any more.
      const ranked = current.heldOut?.splitQueriesKey ?? current.queriesKey;
      const outdated = ranked !== undefined && scope.queriesKey !== undefined && ranked !== scope.queriesKey;
      return { status: outdated ? 'stale' : 'fresh', evaluation: current };
    }
    const lastKey = this.lastOfColumn.get(column.id);
    const last = lastKey === undefined ? undefined : this.results.get(lastKey);
    if (last !== undefined) return { status: 'stale', evaluation: last };
    const refusal = this.refusals.get(evaluationKey(scope.collectionId, scope.split, column.retriever));
    return refusal === undefined ? { status: 'none' } : { status: 'none', refusal };
  }

  /**
   * Ranks every query with each column that has no current result (or every column with `force`),
   * COLUMNS_SIDE_BY_SIDE at a time (in column order, but a column whose workers are free first), then
   * evaluates and stores each run. Cancelling (the tray or `cancel()`) stops it; the
   * columns finished before stay.
   */
  async run(scope: EvaluationScope, columns: readonly ColumnConfig[], queries: readonly Query[], options: { force?: boolean } = {}): Promise<void> {
    if (this.running) return;
    await this.sync(scope, columns);
    const todo = columns
      .map((column, index) => ({ column, index }))
      .filter(({ column }) => options.force === true || this.resultOf(column).status !== 'fresh');
    // Two columns with equal settings make one run.
    const seen = new Set<string>();
    const steps = todo.filter(({ column }) => {
      const key = evaluationKey(scope.collectionId, scope.split, column.retriever);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (steps.length === 0) return;
    const controller = new AbortController();
    this.#controller = controller;
    this.progress = [];
    const version = this.#scopeVersion;
    const runStarted = performance.now();
    const finishing: Array<Promise<ColumnEvaluation>> = [];
    // Runs are stored once the dashboard shows the last column (#store).
    let shown = () => {};
    const whenShown = new Promise<void>((resolve) => (shown = resolve));
    let published = performance.now();
    const publish = (evaluations: readonly ColumnEvaluation[]) => {
      if (version !== this.#scopeVersion || evaluations.length === 0) return;
      const started = performance.now();
      // Drawn in the frame after this change: the measure ends once that frame has been drawn.
      requestAnimationFrame(() => setTimeout(() => measure(`shown ${evaluations.map((e) => e.tag).join(', ')}`, started), 0));
      const results = new Map(this.results);
      for (const evaluation of evaluations) results.set(evaluation.key, evaluation);
      this.results = results;
      this.#remember(scope, columns);
      published = performance.now();
    };
    // A finished column's metrics are shown at most PUBLISH_INTERVAL_MS after the last redraw (each redraw
    // recomputes the significance tests and plots); the last column's with the rest at the end.
    const unshown: ColumnEvaluation[] = [];
    let ranking = steps.length;
    const rankingNow = new Set<{ label: string; beside: Set<string> }>();
    const work = async ({ column, index }: (typeof steps)[number], step: number) => {
      const evaluable = await this.#evaluable(scope, column.retriever, queries);
      if (version !== this.#scopeVersion) return;
      if ('refusal' in evaluable) {
        this.refusals = new Map(this.refusals).set(evaluationKey(scope.collectionId, scope.split, column.retriever), evaluable.refusal);
        ranking -= 1;
        return;
      }
      const label = `${index + 1} · ${retrieverLabel(column.retriever)}`;
      // Which columns rank while this one does (the efficiency table says so: they share the cores).
      const me = { label: retrieverLabel(column.retriever), beside: new Set<string>() };
      for (const other of rankingNow) {
        other.beside.add(me.label);
        me.beside.add(other.label);
      }
      rankingNow.add(me);
      let ranked: RankedColumn;
      try {
        ranked = await this.#rank(scope, column.retriever, label, evaluable.queries, step, steps.length, controller.signal);
        if (me.beside.size > 0) ranked.efficiency.alongside = [...me.beside];
      } catch (error) {
        this.#progressOf(step, undefined);
        // A column's job cancelled in the tray cancels the evaluation: the column ranked beside it stops too.
        if (isAbort(error)) controller.abort(error);
        throw error;
      } finally {
        ranking -= 1;
        rankingNow.delete(me);
      }
      if (evaluable.note !== undefined) {
        ranked.part = { qrels: evaluable.qrels ?? new Map(), heldOut: { note: evaluable.note, splitQueriesKey: queriesFingerprint(queries) } };
      }
      if (version !== this.#scopeVersion) return;
      this.#progressOf(step, { step, steps: steps.length, label, phase: 'evaluating', detail: '', done: ranked.queries, total: ranked.queries });
      // The lane takes its next column while this one's metrics are computed here.
      const done = this.#finish(scope, column.retriever, ranked, whenShown);
      finishing.push(done);
      // Its failure is reported when the run ends (Promise.all below), not as an unhandled rejection now.
      done.catch(() => undefined);
      void done.then(
        (evaluation) => {
          this.#progressOf(step, undefined);
          unshown.push(evaluation);
          // Not while nothing else is ranked: the publish at the end shows it, and two in a row redrew twice.
          if (ranking > 0 && performance.now() - published > PUBLISH_INTERVAL_MS) publish(unshown.splice(0));
        },
        () => this.#progressOf(step, undefined),
      );
    };
    try {
      // Columns rank side by side (a BM25 column in the BM25 worker while a dense one scans in its own).
      await sideBySide(steps, COLUMNS_SIDE_BY_SIDE, work, controller.signal, (a, b) => sharesWorker(a.column.retriever, b.column.retriever));
      await Promise.all(finishing);
      publish(unshown.splice(0));
    } catch (error) {
      await settledValues(finishing);
      publish(unshown.splice(0));
      if (isAbort(error)) notices.info('Evaluation cancelled; the columns finished before are kept.');
      else notices.error(error);
    } finally {
      if (this.#controller === controller) {
        this.#controller = undefined;
        this.progress = null;
      }
      measure('every column', runStarted);
      shown();
    }
  }

  /** Sets (or, with undefined, removes) the progress line of the column evaluated as `step`; lines stay in column order. */
  #progressOf(step: number, progress: RunProgress | undefined): void {
    if (this.progress === null) return;
    const others = this.progress.filter((line) => line.step !== step);
    this.progress = progress === undefined ? others : [...others, progress].sort((a, b) => a.step - b.step);
  }

  cancel(): void {
    this.#controller?.abort(new DOMException('Evaluation cancelled', 'AbortError'));
  }

  /**
   * Why an Augmented BM25 column cannot be evaluated on the scope's split: its model is not stored here, or
   * the split trained it or measured its epochs (src/lib/augment/splits.ts, the CLI's refusal too).
   */
  async #evaluable(scope: EvaluationScope, retriever: RetrieverConfig, queries: readonly Query[]): Promise<EvaluableQueries> {
    const all = { queries, qrels: scope.qrels };
    if (retriever.kind !== 'augmented' || scope.qrels === undefined) return all;
    const model = await storedAugmentModels.model(retriever.augmenter.key);
    if (model === undefined) return { refusal: missingModelMessage(retriever.augmenter) };
    const collection = collections.list.find((c) => c.id === scope.collectionId) ?? { id: scope.collectionId, name: scope.collectionId };
    try {
      const judged = { queries: [...queries], qrels: scope.qrels };
      const evaluable = evaluableQueries(model, trainingCollectionName(model, collection), scope.split, judged);
      if (evaluable.note === undefined) return all;
      const ids = new Set(evaluable.queries.queries.map((query) => query.id));
      return { queries: queries.filter((query) => ids.has(query.id)), qrels: qrelsOf(scope.qrels, ids), note: evaluable.note };
    } catch (error) {
      return { refusal: `Not evaluated: ${error instanceof Error ? error.message : String(error)}.` };
    }
  }

  /** Prepares what a column needs and ranks every query with it, with progress. */
  async #rank(
    scope: EvaluationScope,
    retriever: RetrieverConfig,
    label: string,
    queries: readonly Query[],
    step: number,
    steps: number,
    signal: AbortSignal,
  ): Promise<RankedColumn> {
    const { collectionId } = scope;
    const total = queries.length;
    const report = (phase: RunProgress['phase'], detail = '', done = 0) => this.#progressOf(step, { step, steps, label, phase, detail, done, total });
    // Chunks come back faster than a redraw is worth: their count is drawn at most PROGRESS_INTERVAL_MS apart.
    const ranked = new LatestThrottle<number>((done) => report('ranking', '', done), PROGRESS_INTERVAL_MS);
    report('preparing');
    const prepareStarted = performance.now();
    await engine().prepare(collectionId, retriever, { signal, onPrepare: (status) => report('preparing', status.message) });
    const prepareMs = performance.now() - prepareStarted;
    measure(`${label}: prepare`, prepareStarted);

    report('ranking');
    const marks: Array<{ done: number; at: number }> = [];
    // Queries go to the workers in chunks: one call per query cost more in round trips than the ranking
    // itself, so the latency recorded is a chunk's time per query (the table says so). A cross-encoder's
    // pairs cost far more than a round trip, so a Re-rank column is timed query by query.
    const queriesPerCall = retriever.kind === 'rerank' ? 1 : EVALUATION_CHUNK;
    const learned = { queries: 0, terms: 0, added: 0 };
    const { run, ms, missing } = await rankQueriesWithJob(
      collectionId,
      retriever,
      queries.map((q) => ({ id: q.id, text: q.text })),
      {
        signal,
        depth: RUN_DEPTH,
        chunkSize: queriesPerCall,
        onExpanded: (bags) => {
          learned.queries += bags.length;
          for (const bag of bags) {
            learned.terms += bag.length;
            learned.added += bag.filter((term) => term.added).length;
          }
        },
        title: `Evaluating ${label} · ${total.toLocaleString('en-US')} queries`,
        onProgress: (done) => {
          marks.push({ done, at: performance.now() });
          ranked.push(done);
        },
      },
    ).finally(() => ranked.cancel());
    measure(`${label}: ranking`, prepareStarted + prepareMs);
    const efficiency: EfficiencyRecord = {
      rankMs: ms,
      prepareMs,
      latency: summarizeLatency(timesFromProgress(marks)),
      queriesPerCall,
      ...this.#indexCosts(scope, retriever),
      ...(learned.queries > 0 && { augment: { termsPerQuery: learned.terms / learned.queries, addedPerQuery: learned.added / learned.queries } }),
    };
    return { run, missing, queries: total, queriesKey: queriesFingerprint(queries), efficiency };
  }

  /** A ranked column's metrics (judged@10, judged-only); they are stored with its run once shown (#store). */
  async #finish(scope: EvaluationScope, retriever: RetrieverConfig, ranked: RankedColumn, whenShown: Promise<void>): Promise<ColumnEvaluation> {
    const { collectionId, split } = scope;
    const { run, missing, queries, queriesKey, efficiency, part } = ranked;
    const qrels = part?.qrels ?? scope.qrels;
    // First let the next column send its queries to its worker, so its ranking does not wait for these metrics.
    await nextTask();
    const tag = runTag(retriever);
    const metricsStarted = performance.now();
    const reports = qrels === undefined ? undefined : await judgedReports(qrels, run);
    measure(`${tag}: metrics`, metricsStarted);
    const key = evaluationKey(collectionId, split, retriever);
    const createdAt = Date.now();
    this.#keep(key, run);
    this.#store(key, whenShown, () => ({
      key,
      collectionId,
      split,
      retriever,
      packed: storedRun(packRun(run)),
      createdAt,
      timings: timingsOf(efficiency),
      collectionVersion: scope.collectionVersion,
      tag,
      queries,
      missing,
      efficiency,
      queriesKey,
      ...(part === undefined ? {} : { heldOut: part.heldOut }),
      ...(reports === undefined ? {} : { ...reports, judgmentsKey: qrelsFingerprint(qrels!) }),
    }));
    return {
      key,
      retriever,
      tag,
      report: reports?.report,
      judged: reports?.judged,
      condensedReport: reports?.condensedReport,
      queries,
      missing,
      efficiency,
      createdAt,
      fromStorage: false,
      queriesKey,
      heldOut: part?.heldOut,
    };
  }

  /**
   * Packs and stores a finished column once the dashboard shows the evaluation and the page is idle: nothing
   * shown waits for it, and it would delay the columns ranked after it. Reading a stored run
   * (an export, more measures) waits for its write; a failed write is reported, and the results on screen
   * stay.
   */
  #store(key: string, whenShown: Promise<void>, row: () => EvaluationRow): void {
    const saving = (async () => {
      await whenShown;
      await whenIdle();
      const started = performance.now();
      const made = row();
      // Each block on the page's thread stays short: the next column's chunks come back to it.
      await nextTask();
      await saveEvaluation(database(), made);
      measure(`${made.tag}: stored`, started);
    })();
    this.#saving.set(key, saving);
    saving
      .catch((error: unknown) => notices.error(new Error(`The evaluation run could not be stored in this browser: ${error instanceof Error ? error.message : String(error)}`)))
      .finally(() => {
        if (this.#saving.get(key) === saving) this.#saving.delete(key);
      });
  }

  /** Every column's write still under way is done (or failed). */
  async #saved(): Promise<void> {
    await Promise.allSettled(this.#saving.values());
  }

  #indexCosts(scope: EvaluationScope, retriever: RetrieverConfig): Pick<EfficiencyRecord, 'bm25' | 'dense' | 'rerank'> {
    const opened = preparedSettings(retriever);
    const costs: Pick<EfficiencyRecord, 'bm25' | 'dense' | 'rerank'> = {};
    if (opened.rerank && retriever.kind === 'rerank') {
      const info = engine().rerankInfo(opened.rerank);
      if (info !== undefined) costs.rerank = rerankEfficiency(info, retriever.depth);
    }
    if (opened.bm25) {
      const info = engine().bm25Info(scope.collectionId, opened.bm25);
      if (info !== undefined) costs.bm25 = bm25Efficiency(info, opened.bm25.analyzer);
    }
    if (opened.dense) {
      const info = engine().denseInfo(scope.collectionId, opened.dense);
      if (info !== undefined) costs.dense = denseEfficiency(info, opened.dense);
    }
    return costs;
  }

  /**
   * The TREC text of a stored run, made now (runs are kept in IndexedDB only, packed: a SciFact run is 12 MB
   * of text, too much to hold for every column and setting evaluated).
   */
  async trecText(key: string): Promise<string> {
    const row = await this.#row(key);
    return trecTextOfRow(row, String(row['tag'] ?? 'run'));
  }

  /**
   * A stored run, for measures computed on demand and the analyses: one this page has just made is taken
   * from memory (the analyses read every evaluated run right after an evaluation, and reading and
   * unpacking three SciFact runs again made 900,000 hits on the page's thread while it was in use).
   */
  async runOf(key: string): Promise<RankedRun> {
    return this.#made.get(key) ?? runOfRow(await this.#row(key), `${key}.run`);
  }

  /** Keeps the run just made under its key, the last RUNS_KEPT of them. */
  #keep(key: string, run: RankedRun): void {
    this.#made.delete(key);
    this.#made.set(key, run);
    while (this.#made.size > RUNS_KEPT) this.#made.delete(this.#made.keys().next().value!);
  }

  async #row(key: string): Promise<RunRow & Record<string, unknown>> {
    await this.#saved();
    const row = await findRunRow(database(), key);
    if (row === undefined) throw new Error('This run is not stored any more: run the evaluation again.');
    return row as RunRow & Record<string, unknown>;
  }

  /** Deletes the stored results of the scope (and forgets them here). */
  async forget(): Promise<void> {
    const scope = this.scope;
    if (scope === null || this.running) return;
    try {
      // A write still under way would bring a deleted run back.
      await this.#saved();
      const deleted = await deleteEvaluations(database(), scope.collectionId, scope.split);
      this.results = new Map();
      this.#made.clear();
      this.lastOfColumn = new Map();
      this.#checked = new Set();
      notices.info(`Deleted ${deleted} stored evaluation run${deleted === 1 ? '' : 's'} of the ${scope.split} split.`);
    } catch (error) {
      notices.error(error);
    }
  }
}

export const evaluations = new Evaluations();

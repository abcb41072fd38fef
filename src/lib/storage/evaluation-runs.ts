/**
 * The evaluation dashboard's runs in IndexedDB (rows of the `runs` table of db.ts, next to imported runs:
 * runs.ts), so its results survive a reload: one row per collection, split and retriever settings, keyed
 * `${collectionId}|${split}|${settingsKey(retriever)}`. A column whose settings change looks up another key —
 * the old row is not its result any more — and a collection imported again (another `createdAt`) makes every
 * row of the old import unusable.
 *
 * A row holds the run (packed; TREC text is made from it on export), its metrics as computed when it was made
 * (so a reload shows them without ranking again), how long the ranking took and what the indexes cost to
 * build. Judgments and queries can change under a row (a person judges, adds or rephrases queries in the
 * app), so a row keeps fingerprints of both (lib/judging/fingerprints.ts): metrics are reused only on the
 * judgments they were computed with (else computed again from the stored run), and a run of other queries
 * than the split's judged ones now is shown as stale.
 */
import type { JudgedCoverage } from '../eval/judged.ts';
import type { LatencySummary } from '../eval/latency.ts';
import type { RunReport } from '../eval/run-report.ts';
import type { RetrieverConfig } from '../retrievers/config.ts';
import { settingsKey } from '../settings-key.ts';
import type { PlaygroundDatabase, RunRow } from './db.ts';

/** What opening the BM25 index of a column cost (from the `indexes` row of its analyzer). */
export interface Bm25Efficiency {
  analyzer: string;
  /** `built`: built in the page session that made the run; `stored`: loaded from IndexedDB. */
  source: 'built' | 'stored';
  buildMs: number;
  bytes: number;
  /** When the index was built (epoch ms). */
  builtAt: number;
}

/** What opening the dense side of a column cost (the engine's DenseOpenInfo). */
export interface DenseEfficiency {
  model: string;
  /** The device the model ran on (after any WebGPU → WASM fallback). */
  device: string;
  dtype: string;
  dim: number;
  docs: number;
  /** `embedded`: the corpus was embedded in the page session that made the run; `stored`: vectors loaded. */
  source: 'embedded' | 'stored';
  embedMs: number;
  docsPerSecond?: number;
  /** The corpus vectors in memory (float32). */
  vectorBytes: number;
  hnsw?: { source: 'stored' | 'built'; ms: number };
  fallbackReason?: string;
}

/** What a Re-rank column's cross-encoder cost (the engine's RerankerOpenInfo, and the pairs per query). */
export interface RerankEfficiency {
  model: string;
  device: string;
  dtype: string;
  /** Tokens per pair. */
  maxLength: number;
  loadMs: number;
  /** First-stage hits scored per query. */
  depth: number;
  fallbackReason?: string;
}

export interface EfficiencyRecord {
  /** Wall time of ranking every query (preparation excluded). */
  rankMs: number;
  /** Time this evaluation waited for indexes, models and embeddings (≈ 0 when they were open). */
  prepareMs: number;
  latency: LatencySummary;
  /** Queries per worker call while measuring (1: every latency is one query's own). */
  queriesPerCall: number;
  bm25?: Bm25Efficiency;
  dense?: DenseEfficiency;
  rerank?: RerankEfficiency;
  /** Augmented BM25: the learned queries' size (the paper's claim is BM25's speed with them). */
  augment?: AugmentEfficiency;
  /** The columns (labels) ranked at the same time as this one: they shared the cores, so its times are higher than alone. */
  alongside?: string[];
}

export interface AugmentEfficiency {
  /** Mean terms per learned query, and of them the terms the model added. */
  termsPerQuery: number;
  addedPerQuery: number;
}

export interface EvaluationRow extends RunRow {
  retriever: RetrieverConfig;
  /** `createdAt` of the collection row the run was made on. */
  collectionVersion: number;
  /** The run tag (last column of the TREC text). */
  tag: string;
  /** Queries ranked. */
  queries: number;
  /** Queries with no ranking (an imported run that lacks them). */
  missing: string[];
  efficiency: EfficiencyRecord;
  /** The run's metrics on the split's judgments when it was made; absent when the split has none. */
  report?: RunReport;
  /** judged@10 of the run on those judgments (absent in rows made before it was computed). */
  judged?: JudgedCoverage;
  /** The metrics on the run's condensed lists (judged documents only; absent as `judged`). */
  condensedReport?: RunReport;
  /** Fingerprint of the judgments `report`, `judged` and `condensedReport` were computed on (absent in older rows). */
  judgmentsKey?: string;
  /** Fingerprint of the queries (ids and texts) the run ranked (absent in older rows). */
  queriesKey?: string;
  /**
   * A run of part of the split's judged queries (an Augmented BM25 model trained on a seeded share of the
   * split is measured on the held-out rest): which part, in words, and the fingerprint of the whole split's
   * queries it was drawn from.
   */
  heldOut?: { note: string; splitQueriesKey: string };
}

export function evaluationKey(collectionId: string, split: string, retriever: RetrieverConfig): string {
  return `${collectionId}|${split}|${settingsKey(retriever)}`;
}

/** RunRow's numeric timings (what a generic reader of the table sees). */
export function timingsOf(efficiency: EfficiencyRecord): Record<string, number> {
  const timings: Record<string, number> = {
    rank_ms: efficiency.rankMs,
    prepare_ms: efficiency.prepareMs,
    latency_mean_ms: efficiency.latency.meanMs,
    latency_p95_ms: efficiency.latency.p95Ms,
  };
  if (efficiency.bm25) {
    timings['bm25_build_ms'] = efficiency.bm25.buildMs;
    timings['bm25_bytes'] = efficiency.bm25.bytes;
  }
  if (efficiency.dense) {
    timings['embed_ms'] = efficiency.dense.embedMs;
    timings['vector_bytes'] = efficiency.dense.vectorBytes;
    if (efficiency.dense.docsPerSecond !== undefined) timings['docs_per_s'] = efficiency.dense.docsPerSecond;
    if (efficiency.dense.hnsw) timings['hnsw_ms'] = efficiency.dense.hnsw.ms;
  }
  if (efficiency.rerank) timings['rerank_model_load_ms'] = efficiency.rerank.loadMs;
  return timings;
}

function isEvaluationRow(row: RunRow): row is EvaluationRow {
  const candidate = row as Partial<EvaluationRow>;
  return typeof candidate.collectionVersion === 'number' && typeof candidate.tag === 'string' && candidate.efficiency !== undefined;
}

export async function saveEvaluation(db: PlaygroundDatabase, row: EvaluationRow): Promise<void> {
  await db.runs.put(row);
}

/**
 * The stored evaluations of these retrievers on a collection (as imported at `collectionVersion`) and
 * split, by evaluation key; rows of an earlier import are left out.
 */
export async function loadEvaluations(
  db: PlaygroundDatabase,
  collectionId: string,
  collectionVersion: number,
  split: string,
  retrievers: readonly RetrieverConfig[],
): Promise<Map<string, EvaluationRow>> {
  const keys = [...new Set(retrievers.map((r) => evaluationKey(collectionId, split, r)))];
  const rows = await db.runs.bulkGet(keys);
  const found = new Map<string, EvaluationRow>();
  for (const row of rows) {
    if (row === undefined || !isEvaluationRow(row)) continue;
    if (row.collectionId !== collectionId || row.split !== split || row.collectionVersion !== collectionVersion) continue;
    found.set(row.key, row);
  }
  return found;
}

/** Deletes the stored evaluations of a collection's split (imported runs stay); returns how many. */
export async function deleteEvaluations(db: PlaygroundDatabase, collectionId: string, split: string): Promise<number> {
  return db.runs
    .where('collectionId')
    .equals(collectionId)
    .filter((row) => row.split === split && isEvaluationRow(row))
    .delete();
}

/**
 * Re-ranking's cost against LEDR's, from the efficiency records of the dashboard's runs: LaPraDoR presents
 * LEDR as far cheaper than cross-encoder re-ranking (a dot product per candidate against a transformer pass
 * per pair); this is the ratio measured here, mean per-query latency over mean per-query latency.
 */
import type { EfficiencyRecord } from '../../lib/storage/evaluation-runs.ts';

export interface LatencyRatio {
  /** Mean per-query latency of the Re-rank run. */
  rerankMs: number;
  /** Mean per-query latency of the LEDR run it is compared with. */
  ledrMs: number;
  /** rerankMs / ledrMs. */
  ratio: number;
  /** Dashboard index (0-based) of the LEDR column. */
  ledrIndex: number;
}

export interface CostedColumn {
  index: number;
  kind: string;
  efficiency: EfficiencyRecord | undefined;
}

/**
 * The ratio of `rerank`'s mean latency to the first LEDR column's (evaluated, finite, > 0); undefined when the
 * dashboard has none to compare with.
 */
export function rerankLedrRatio(rerank: EfficiencyRecord, columns: readonly CostedColumn[]): LatencyRatio | undefined {
  const against = latencyAgainst(rerank, columns, 'ledr');
  return against && { rerankMs: against.ms, ledrMs: against.baseMs, ratio: against.ratio, ledrIndex: against.baseIndex };
}

/**
 * The ratio of a run's mean latency to the first evaluated column of `kind` (finite, > 0): Re-rank against
 * LEDR, Augmented BM25 against plain BM25 (the query-augmentation paper's claim: as fast as BM25).
 */
export function latencyAgainst(
  run: EfficiencyRecord,
  columns: readonly CostedColumn[],
  kind: string,
): { ms: number; baseMs: number; ratio: number; baseIndex: number } | undefined {
  const ms = run.latency.meanMs;
  if (!Number.isFinite(ms)) return undefined;
  for (const column of columns) {
    const baseMs = column.efficiency?.latency.meanMs;
    if (column.kind !== kind || baseMs === undefined || !Number.isFinite(baseMs) || baseMs <= 0) continue;
    return { ms, baseMs, ratio: ms / baseMs, baseIndex: column.index };
  }
  return undefined;
}

/** `×37` (two significant digits under 10: `×2.4`). */
export function ratioText(ratio: number): string {
  return `×${ratio >= 10 ? Math.round(ratio).toLocaleString('en-US') : ratio.toPrecision(2)}`;
}

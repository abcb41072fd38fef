/**
 * Query latency over a split: the mean and the 95th percentile of per-query times. The percentile is the
 * nearest-rank one (the smallest time at least 95 % of the queries do not exceed: sorted[⌈0.95 n⌉ − 1]),
 * which is always a time that was measured.
 */

export interface LatencySummary {
  queries: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
}

export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sortedMs.length));
  return sortedMs[rank - 1]!;
}

export function summarizeLatency(ms: readonly number[]): LatencySummary {
  const sorted = [...ms].sort((a, b) => a - b);
  const sum = sorted.reduce((s, x) => s + x, 0);
  return {
    queries: sorted.length,
    meanMs: sorted.length === 0 ? Number.NaN : sum / sorted.length,
    p95Ms: percentile(sorted, 95),
    maxMs: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
  };
}

/**
 * Per-query times from progress reports: `marks[i]` is when i queries were done (marks[0]: the start), so
 * a chunk of c queries finishing after t ms gives c times of t / c (with one query per chunk, the exact
 * time of each).
 */
export function timesFromProgress(marks: ReadonlyArray<{ done: number; at: number }>): number[] {
  const times: number[] = [];
  for (let i = 1; i < marks.length; i++) {
    const previous = marks[i - 1]!;
    const mark = marks[i]!;
    const count = mark.done - previous.done;
    if (count <= 0) continue;
    const each = (mark.at - previous.at) / count;
    for (let j = 0; j < count; j++) times.push(each);
  }
  return times;
}

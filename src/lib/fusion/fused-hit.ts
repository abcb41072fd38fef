import type { Hit } from '../types.ts';

/**
 * A fused hit: usable wherever a `Hit` is (document id and fused score), plus the parts that made the
 * score, so the UI can show the formula with its numbers. `P` is specific to each fusion.
 */
export interface FusedHit<P> extends Hit {
  parts: P;
}

/** Options shared by the fusions over several rankings (names follow Pyserini's `fusion` module). */
export interface FusionDepthOptions {
  /** Only the first `depth` hits of each input ranking take part (Pyserini `depth`); default: all. */
  depth?: number;
  /** Length of the fused ranking (Pyserini `k`); default: every document of the inputs. */
  limit?: number;
}

/**
 * Compares strings by Unicode code point, as Python's `<` on `str` does (JavaScript's `<` compares UTF-16
 * code units, which orders characters outside the Basic Multilingual Plane differently).
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xSurrogate = x >= 0xd800 && x <= 0xdfff;
    const ySurrogate = y >= 0xd800 && y <= 0xdfff;
    if (xSurrogate === ySurrogate) return x - y;
    // A surrogate (part of a code point ≥ U+10000) sorts after every other code unit value in code point order.
    return xSurrogate ? 1 : -1;
  }
  return a.length - b.length;
}

/**
 * The order of every fused ranking: higher score first, equal scores by document id ascending — Pyserini's
 * `sorted(doc_scores.items(), key=lambda x: (-x[1], x[0]))` in `TrecRun.merge`.
 */
export function compareFused(a: Hit, b: Hit): number {
  return b.score - a.score || compareCodePoints(a.docId, b.docId);
}

/** Sorts fused hits in place with `compareFused` and cuts them to `limit`. */
export function rankFused<H extends Hit>(hits: H[], limit: number | undefined): H[] {
  hits.sort(compareFused);
  if (limit !== undefined) {
    assertCount(limit, 'limit');
    hits.length = Math.min(hits.length, limit);
  }
  return hits;
}

/** The first `depth` hits of a ranking (all of them when depth is undefined). */
export function topOf(hits: readonly Hit[], depth: number | undefined): readonly Hit[] {
  if (depth === undefined) return hits;
  assertCount(depth, 'depth');
  return hits.slice(0, depth);
}

/** Rejects a ranking that holds a document twice: its parts (rank, score) would be ambiguous. */
export function assertUniqueIds(hits: readonly Hit[], which: string): void {
  const seen = new Set<string>();
  for (const hit of hits) {
    if (seen.has(hit.docId)) throw new RangeError(`${which} holds document "${hit.docId}" twice`);
    seen.add(hit.docId);
  }
}

export function assertCount(value: number, name: string): void {
  if (!(Number.isInteger(value) && value >= 0) && value !== Infinity) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

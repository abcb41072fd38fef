import type { Run } from '../types.ts';

/**
 * Lengths of the documents a run retrieves next to the lengths of the whole corpus — the analysis of the
 * BEIR paper's Appendix H (../shared/papers/beir-benchmark.txt, Table 10 and Figure 4): cosine-similarity
 * models prefer short documents, dot-product models long ones, and that preference shows as a top 10 whose
 * length distribution sits left or right of the corpus's.
 *
 * Length is counted in **words**, as BEIR counts it: runs of non-whitespace characters in
 * `title + " " + text` (no analyzer, so stop words and punctuation-only tokens count; a dense and a BM25
 * column are measured with the same ruler).
 */

/** Words of a document: maximal runs of non-whitespace characters (Unicode whitespace) of title and text. */
export function wordCount(title: string, text: string): number {
  return runsOfNonSpace(title) + runsOfNonSpace(text);
}

/**
 * How many matches `/\S+/gu` has in `text`, counted without making them: the analyses count every document
 * of the corpus, and the arrays of words made for it were most of their time and garbage. A surrogate pair
 * is not whitespace, so counting UTF-16 units gives the code points' runs.
 */
function runsOfNonSpace(text: string): number {
  let runs = 0;
  let inRun = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inRun) runs++;
    inRun = !space;
  }
  return runs;
}

/** `\s` of JavaScript's regular expressions: WhiteSpace and LineTerminator (ECMA-262), by code unit. */
function isSpace(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (unit < 0xa0) return false;
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/**
 * The lengths of the top `depth` documents of every query in `queryIds` (default: every query of the run),
 * in query order then rank order. A document retrieved for two queries counts twice (the distribution is
 * of retrieved slots, as BEIR's violin plots are). Documents `lengthOf` does not know are skipped and
 * counted in `unknown`.
 */
export function retrievedLengths(
  run: Run,
  lengthOf: (docId: string) => number | undefined,
  options: { depth?: number; queryIds?: Iterable<string> } = {},
): { lengths: number[]; unknown: number } {
  const depth = options.depth ?? 10;
  if (!Number.isInteger(depth) || depth <= 0) throw new RangeError(`depth must be a positive integer, got ${depth}`);
  const lengths: number[] = [];
  let unknown = 0;
  for (const qid of options.queryIds ?? run.keys()) {
    for (const hit of (run.get(qid) ?? []).slice(0, depth)) {
      const length = lengthOf(hit.docId);
      if (length === undefined) unknown++;
      else lengths.push(length);
    }
  }
  return { lengths, unknown };
}

/** A summary of a set of lengths; every quantile is the nearest-rank one (a length that occurs). */
export interface LengthSummary {
  count: number;
  mean: number;
  /** Nearest-rank quantiles: the ⌈q·n⌉-th smallest length (q = 0.25, 0.5, 0.75). */
  q1: number;
  median: number;
  q3: number;
  min: number;
  max: number;
}

/** The ⌈q·n⌉-th smallest of sorted values (the first for q = 0); NaN for none. */
export function nearestRank(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

export function summarizeLengths(lengths: readonly number[]): LengthSummary {
  const sorted = [...lengths].sort((a, b) => a - b);
  const n = sorted.length;
  const sum = sorted.reduce((total, x) => total + x, 0);
  return {
    count: n,
    mean: n === 0 ? Number.NaN : sum / n,
    q1: nearestRank(sorted, 0.25),
    median: nearestRank(sorted, 0.5),
    q3: nearestRank(sorted, 0.75),
    min: n === 0 ? Number.NaN : sorted[0]!,
    max: n === 0 ? Number.NaN : sorted[n - 1]!,
  };
}

/** The smallest of 1, 2, 5 × 10^n that is ≥ x (x > 0). */
export function niceCeil(x: number): number {
  if (!(x > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(x));
  for (const step of [1, 2, 5, 10]) if (step * power >= x) return step * power;
  return 10 * power;
}

/**
 * Bins for comparing length distributions, chosen from the corpus so that its bulk is spread over them:
 * `count` bins of equal width w, w the nice number (1, 2, 5 × 10^n) at or above (p98 − p2) / count, p2
 * and p98 the corpus's nearest-rank 2nd and 98th percentiles, the first bin starting at p2 rounded down to
 * a multiple of w — so a few very short or very long documents do not squash the rest into one bin. Bin i
 * holds lengths in [start + i·w, start + (i+1)·w); the first bin also holds every shorter length, the last
 * every longer one.
 */
export interface LengthBins {
  start: number;
  width: number;
  count: number;
}

export function lengthBins(corpusLengths: readonly number[], count = 12): LengthBins {
  if (!Number.isInteger(count) || count <= 0) throw new RangeError(`bin count must be a positive integer, got ${count}`);
  const sorted = [...corpusLengths].sort((a, b) => a - b);
  const low = sorted.length === 0 ? 0 : nearestRank(sorted, 0.02);
  const high = sorted.length === 0 ? 0 : nearestRank(sorted, 0.98);
  const width = Math.max(1, niceCeil((high - low) / count));
  return { start: Math.floor(low / width) * width, width, count };
}

/** The bin of a length (the first and last bins are open). */
export function binOf(length: number, bins: LengthBins): number {
  return Math.min(bins.count - 1, Math.max(0, Math.floor((length - bins.start) / bins.width)));
}

/** Labels of the bins: `< 60` (or `0–9` when the bins start at 0), `60–69`, …, `170+`. */
export function binLabels(bins: LengthBins): string[] {
  const { start, width, count } = bins;
  return Array.from({ length: count }, (_, i) => {
    const lower = start + i * width;
    if (i === count - 1) return `${lower}+`;
    if (i === 0 && start > 0) return `< ${lower + width}`;
    return `${lower}–${lower + width - 1}`;
  });
}

/** The share of `lengths` in each bin (all 0 when there are none); shares sum to 1. */
export function lengthHistogram(lengths: readonly number[], bins: LengthBins): number[] {
  const counts = new Array<number>(bins.count).fill(0);
  for (const length of lengths) counts[binOf(length, bins)]!++;
  return lengths.length === 0 ? counts : counts.map((c) => c / lengths.length);
}

/** The share of `lengths` strictly below `threshold` (e.g. the corpus median); NaN for none. */
export function shareBelow(lengths: readonly number[], threshold: number): number {
  if (lengths.length === 0) return Number.NaN;
  return lengths.filter((length) => length < threshold).length / lengths.length;
}

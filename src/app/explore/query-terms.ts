/**
 * The state logic of a BM25 column's "query terms" panel, as pure functions over a weighted bag (the
 * component only renders and calls these): change a weight, step it with the arrow keys, drop a term, add
 * expansion terms analyzed with the column's analyzer, and write the bag as canonical syntax for the URL.
 * Weights are float32 values ≥ 0, as Lucene's clause boosts (`boostProblem`).
 */
import type { Analyzer } from '../../lib/analysis/analyzer.ts';
import { boostProblem, type QueryTermWeight } from '../../lib/bm25/bm25-query.ts';
import { formatWeightedQuery } from '../../lib/bm25/query-syntax.ts';

export type TermBag = readonly QueryTermWeight[];

/** A weight as typed in a number field: the weight, or why it cannot be one. */
export function readWeight(text: string): { weight: number } | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'type a weight (a number ≥ 0)' };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { problem: `"${trimmed}" is not a number` };
  const problem = boostProblem(value);
  return problem === null ? { weight: Math.fround(value) } : { problem };
}

/**
 * The weight after one arrow-key step: ±0.1 (±1 with Shift), on the grid of that step (so 0.1 steps from
 * 1.23 land on 1.3, not 1.33), never below 0.
 */
export function stepWeight(weight: number, direction: 1 | -1, large = false): number {
  const step = large ? 1 : 0.1;
  const scaled = weight / step;
  // A weight already on the grid moves one step; one between grid points moves to the next one.
  const onGrid = Math.abs(scaled - Math.round(scaled)) < 1e-6;
  const next = onGrid ? Math.round(scaled) + direction : direction > 0 ? Math.ceil(scaled) : Math.floor(scaled);
  return Math.fround(Math.max(0, Number((next * step).toFixed(6))));
}

export function setWeight(bag: TermBag, term: string, weight: number): QueryTermWeight[] {
  const problem = boostProblem(weight);
  if (problem !== null) throw new RangeError(problem);
  return bag.map((entry) => (entry.term === term ? { term, weight: Math.fround(weight) } : entry));
}

export function dropTerm(bag: TermBag, term: string): QueryTermWeight[] {
  return bag.filter((entry) => entry.term !== term);
}

export interface AddResult {
  bag: QueryTermWeight[];
  /** Index terms added (in order). */
  added: string[];
  /** Terms already in the query (left as they are). */
  present: string[];
  /** Why nothing was added, for a message (the analyzer drops every word, or the box is empty). */
  problem?: string;
}

/**
 * Adds the terms `text` analyzes to, each with `weight` (default 1), after the query's own terms — an
 * expansion term is analyzed like a query word, so `Tumors` adds `tumor` with the English analyzer. A term
 * already in the query keeps its weight.
 */
export function addTerms(bag: TermBag, text: string, analyzer: Pick<Analyzer, 'analyze'>, weight = 1): AddResult {
  if (text.trim() === '') return { bag: [...bag], added: [], present: [], problem: 'type a word to add' };
  const terms = [...new Set(analyzer.analyze(text))];
  if (terms.length === 0) return { bag: [...bag], added: [], present: [], problem: `the analyzer drops "${text.trim()}" (a stop word or punctuation), so it cannot be a term` };
  const have = new Set(bag.map((entry) => entry.term));
  const added = terms.filter((term) => !have.has(term));
  const present = terms.filter((term) => have.has(term));
  return { bag: [...bag, ...added.map((term) => ({ term, weight: Math.fround(weight) }))], added, present };
}

/** The bag as canonical query syntax (`+term^w …`), what the URL holds. */
export function canonicalQuery(bag: TermBag): string {
  return formatWeightedQuery(bag);
}

/** Whether two bags are the same query (same terms in the same order with the same weights). */
export function sameBag(a: TermBag, b: TermBag): boolean {
  return a.length === b.length && a.every((entry, i) => entry.term === b[i]!.term && entry.weight === b[i]!.weight);
}

/** A weight as the panel shows it: the shortest decimal that is the same float (2.5, not 2.5000000). */
export function weightText(weight: number): string {
  for (let digits = 1; digits <= 9; digits++) {
    const text = String(Number(weight.toPrecision(digits)));
    if (Math.fround(Number(text)) === weight) return text;
  }
  return String(weight);
}

/**
 * What one column ranks for the query in the box. The weighted query syntax (`term^2.5`, `+term^w`,
 * src/lib/bm25/query-syntax.ts) applies to text the person typed or edited; a stored query as written is
 * ranked as plain text, exactly as the Evaluate view and the CLI rank it.
 *
 * - BM25 parts (BM25, LEDR, RRF, convex) rank with the weighted bag parsed with the column's analyzer when
 *   the text uses the syntax, or with the column's edited query terms (the terms panel) when it has them;
 *   otherwise with the text, analyzed in the worker as before.
 * - Dense parts read the text with weights and `+` markers stripped (`bread^2 +stale` → `bread stale`):
 *   an embedding has no per-term weights to give, and reading the added words keeps them in the query.
 */
import type { Analyzer } from '../../lib/analysis/analyzer.ts';
import type { Bm25AnalyzerName } from '../../lib/analysis/analyzers.ts';
import { bagOfTerms, type QueryTermWeight } from '../../lib/bm25/bm25-query.ts';
import { parseWeightedQuery, stripQuerySyntax, type ParsedQuery } from '../../lib/bm25/query-syntax.ts';
import type { RetrieverConfig } from '../../lib/retrievers/config.ts';
import type { RankQuery } from '../../lib/retrievers/ranking.ts';

/**
 * The analyzer of the BM25 part that reads a column's weighted query: its own BM25 settings', or a Re-rank
 * column's first stage's (the cross-encoder reads the stripped text); undefined for a column without BM25.
 */
export function bm25AnalyzerOf(retriever: RetrieverConfig): Bm25AnalyzerName | undefined {
  const source = retriever.kind === 'rerank' ? retriever.firstStage : retriever;
  return 'bm25' in source ? source.bm25.analyzer : undefined;
}

/** The query as the box holds it. */
export interface BoxQuery {
  /** The stored query's id (its judgments apply), if any. */
  id?: string;
  text: string;
  /** True when the text was typed or edited, so the weighted syntax applies. */
  typed: boolean;
}

export interface ColumnQuery {
  /** What the engine ranks. */
  input: RankQuery;
  /** The parse of typed text with the column's BM25 analyzer (syntax errors, dropped boosts, notes). */
  parsed?: ParsedQuery;
  /** The column's bag before any edit in the terms panel (BM25 columns only): what reset returns to. */
  typedBag?: QueryTermWeight[];
  /** The edited bag ranked instead (the panel's terms), when there is one. */
  edited?: QueryTermWeight[];
  /** Why the column's analyzer is not available in the page (its weighted syntax and edits are ignored). */
  analyzerProblem?: string;
}

/**
 * The column's BM25 analyzer as the page has it: none (a column without BM25), 'loading' (a loadable
 * analyzer whose data file is on its way), an Error (it could not be loaded), or the analyzer.
 */
export type PageAnalyzer = Pick<Analyzer, 'analyze'> | Error | 'loading' | undefined;

/**
 * The column's query, or null while it must wait for its analyzer. `edit` is the column's edited query
 * terms in canonical syntax (`formatWeightedQuery`), or undefined.
 *
 * Text without syntax and without an edit never waits: it is ranked as text (analyzed in the worker), as
 * before the syntax existed, and only the panel waits for the analyzer.
 */
export function columnQuery(box: BoxQuery, analyzer: PageAnalyzer, edit: string | undefined): ColumnQuery | null {
  const plain = box.typed ? stripQuerySyntax(box.text) : { text: box.text, weighted: false };
  const input: RankQuery = box.id === undefined ? { text: plain.text } : { id: box.id, text: plain.text };
  if (analyzer === undefined) return { input };
  if (analyzer === 'loading') return plain.weighted || edit !== undefined ? null : { input };
  if (analyzer instanceof Error) return { input, analyzerProblem: analyzer.message };
  const parsed = box.typed ? parseWeightedQuery(box.text, analyzer) : undefined;
  const typedBag = parsed?.terms ?? bagOfTerms(analyzer.analyze(box.text));
  // Canonical text holds `+term` tokens only, which the parser takes verbatim (the analyzer is not applied).
  const edited = edit === undefined ? undefined : parseWeightedQuery(edit, analyzer).terms;
  const weighted = edited ?? (plain.weighted ? parsed?.terms : undefined);
  if (weighted !== undefined) input.weighted = weighted;
  return { input, typedBag, ...(parsed ? { parsed } : {}), ...(edited ? { edited } : {}) };
}

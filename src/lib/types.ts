/**
 * The data model shared by every part of the retrieval core. Plain data only, so it crosses worker
 * boundaries (structured clone) and serializes to IndexedDB unchanged.
 */

/** One line of a BEIR `corpus.jsonl`. */
export interface Doc {
  id: string;
  title: string;
  text: string;
  metadata?: Record<string, unknown>;
}

/** One line of a BEIR `queries.jsonl`. */
export interface Query {
  id: string;
  text: string;
  metadata?: Record<string, unknown>;
}

/**
 * Relevance judgments: query id → document id → grade. Grades are integers as in trec_eval's qrels; 0 and
 * negative grades are judged non-relevant, which is different from unjudged (absent).
 */
export type Qrels = Map<string, Map<string, number>>;

/** One retrieved document with its retrieval score. */
export interface Hit {
  docId: string;
  score: number;
}

/** Retrieval results: query id → hits, best first. */
export type Run = Map<string, Hit[]>;

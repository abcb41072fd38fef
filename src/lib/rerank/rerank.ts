/**
 * Re-ranking: the first stage's top `depth` hits ordered by a cross-encoder's scores. Only those hits are
 * returned (as BEIR's reranking evaluation does), each with its first-stage rank and score beside the new
 * ones, so a column can show the movement; what the first stage missed stays missed, which
 * firstStageCeiling measures (recall@depth of the first stage, the best recall a re-ranker can reach there).
 */
import { evaluate } from '../eval/evaluate.ts';
import type { Doc, Hit, Qrels, Run } from '../types.ts';
import type { PairDoc, PairScorer, ScoreOptions } from './cross-encoder.ts';

export interface RerankedHit extends Hit {
  /** The cross-encoder's score (`score`) decides newRank. */
  newRank: number;
  /** 1-based rank in the first stage. */
  firstStageRank: number;
  firstStageScore: number;
}

/** Scores for documents by id, aligned with the ids given (e.g. a PairScorer bound to a query and texts). */
export type DocScorer = (docIds: readonly string[]) => Promise<ArrayLike<number>>;

/**
 * The top `depth` first-stage hits in the order of `score`'s scores, best first; equal scores keep their
 * first-stage order, NaN scores go last.
 */
export async function rerank(firstStageHits: readonly Hit[], depth: number, score: DocScorer): Promise<RerankedHit[]> {
  const candidates = firstStageHits.slice(0, Math.max(0, Math.floor(depth)));
  const scores = await score(candidates.map((hit) => hit.docId));
  if (scores.length !== candidates.length) throw new Error(`expected ${candidates.length} scores, got ${scores.length}`);
  const order = candidates.map((_, i) => i);
  const key = (i: number) => (Number.isNaN(scores[i]!) ? -Infinity : scores[i]!);
  order.sort((a, b) => key(b) - key(a) || a - b);
  return order.map((i, rank) => ({
    docId: candidates[i]!.docId,
    score: scores[i]!,
    newRank: rank + 1,
    firstStageRank: i + 1,
    firstStageScore: candidates[i]!.score,
  }));
}

/** The text a cross-encoder reads for a document: `title + " " + text`, as BEIR's reranking does. */
export function rerankDocText(doc: Pick<Doc, 'title' | 'text'>): string {
  return (doc.title ? `${doc.title} ${doc.text}` : doc.text).trim();
}

/** A DocScorer for one query: texts looked up by id, scored by `scorer` (with its cache, progress, cancel). */
export function docScorerFor(
  scorer: PairScorer,
  query: string,
  textOf: (docId: string) => string | undefined,
  options: ScoreOptions = {},
): DocScorer {
  return (docIds) => {
    const docs: PairDoc[] = docIds.map((id) => {
      const text = textOf(id);
      if (text === undefined) throw new Error(`document ${id} is not in the collection`);
      return { id, text };
    });
    return scorer.score(query, docs, options);
  };
}

/**
 * Recall@depth of the first stage over the judged queries (trec_eval `-c -m recall.<depth>`): the ceiling of
 * any re-ranking of its top `depth`. Per query and the mean.
 */
export function firstStageCeiling(qrels: Qrels, firstStage: Run, depth: number): { mean: number; perQuery: Map<string, number> } {
  const measure = `recall.${Math.max(1, Math.floor(depth))}`;
  const result = evaluate(qrels, firstStage, { measures: [measure], complete: true });
  const column = result.columns[0]!.name;
  return {
    mean: result.all[column] ?? 0,
    perQuery: new Map(result.queries.map((q) => [q.qid, q.values[column] ?? 0])),
  };
}

/**
 * Why a document scores what it does in a column: BM25 term contributions (Lucene's explanation, of the
 * expanded query for RM3 / Bo1), the dense similarity, and the document's rank in each input ranking — the
 * same rankings the column's own ranking used (the memo's searches, so explaining searches nothing new).
 */
import type { Bm25Explanation } from '../../lib/bm25/bm25-explain.ts';
import type { QueryTermWeight } from '../../lib/bm25/bm25-query.ts';
import { preparedSettings, RUN_DEPTH, type Bm25Settings, type DenseSettings, type RetrieverConfig } from '../../lib/retrievers/config.ts';
import { isBlank, rankBatch, type RankSearch } from '../../lib/retrievers/rank.ts';
import type { Hit } from '../../lib/types.ts';
import type { Bm25Backend } from './backends.ts';
import type { RankQuery } from '../../lib/retrievers/ranking.ts';

/** Why a document scores what it scores in a column (its fused parts are in the ranking's hits). */
export interface HitExplanation {
  docId: string;
  bm25?: {
    settings: Bm25Settings;
    explanation?: Bm25Explanation;
    error?: string;
    /** 1-based rank in the column's BM25 ranking (its top K for LEDR), null when outside it. */
    rank: number | null;
    depth: number;
    /** RM3 / Bo1 / Augmented BM25: the expanded weighted query the explanation is of (the rank is in its ranking). */
    expanded?: QueryTermWeight[];
  };
  dense?: {
    settings: DenseSettings;
    /** The model's similarity of query and document (cosine for normalized models). */
    similarity?: number;
    error?: string;
    /** 1-based rank in the column's dense ranking (absent for LEDR, which scores BM25's candidates only). */
    rank?: number | null;
    depth: number;
  };
}

function rankOf(hits: readonly Hit[], docId: string): number | null {
  const index = hits.findIndex((hit) => hit.docId === docId);
  return index < 0 ? null : index + 1;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The explanation of `docId` for `query` in the column `retriever` (prepared already). */
export async function explainHit(
  search: RankSearch,
  bm25Backend: Bm25Backend,
  collectionId: string,
  retriever: RetrieverConfig,
  query: RankQuery,
  docId: string,
): Promise<HitExplanation> {
  const needs = preparedSettings(retriever);
  // A Re-rank column's BM25 and dense parts are its first stage's.
  const source = retriever.kind === 'rerank' ? retriever.firstStage : retriever;
  const explanation: HitExplanation = { docId };
  const work: Promise<void>[] = [];
  if (needs.bm25) {
    const settings = needs.bm25;
    const depth = source.kind === 'ledr' ? source.k : RUN_DEPTH;
    work.push(
      (async () => {
        // RM3, Bo1 and Augmented BM25 score with BM25 on an expanded weighted query: explain that query, rank in its ranking.
        const lexical: RetrieverConfig = source.kind === 'rm3' || source.kind === 'bo1' || source.kind === 'augmented' ? source : { kind: 'bm25', bm25: settings };
        const [ranking] = await rankBatch(search, lexical, [query], { depth: lexical.kind === 'bm25' ? depth : RUN_DEPTH });
        const prf = ranking?.kind === 'rm3' || ranking?.kind === 'bo1' || ranking?.kind === 'augmented' ? ranking : undefined;
        const part: NonNullable<HitExplanation['bm25']> = { settings, rank: rankOf(ranking?.hits ?? [], docId), depth };
        if (prf && !isBlank(query.text)) part.expanded = prf.expanded;
        try {
          part.explanation = await bm25Backend.explain(collectionId, settings.analyzer, part.expanded ?? query.weighted ?? query.text, docId, { k1: settings.k1, b: settings.b });
        } catch (error) {
          part.error = message(error);
        }
        explanation.bm25 = part;
      })(),
    );
  }
  if (needs.dense) {
    const settings = needs.dense;
    work.push(
      (async () => {
        const part: NonNullable<HitExplanation['dense']> = { settings, depth: RUN_DEPTH };
        if (source.kind !== 'ledr') {
          const [hits = []] = await rankBatch(search, { kind: 'dense', dense: settings }, [query], { form: 'hits', depth: RUN_DEPTH });
          part.rank = rankOf(hits, docId);
        }
        try {
          const [scores = []] = await search.denseScores(settings, [query.text], [[{ docId }]]);
          const similarity = scores[0];
          if (similarity !== undefined && Number.isFinite(similarity)) part.similarity = similarity;
          else part.error = `document ${docId} has no vector`;
        } catch (error) {
          part.error = message(error);
        }
        explanation.dense = part;
      })(),
    );
  }
  await Promise.all(work);
  return explanation;
}

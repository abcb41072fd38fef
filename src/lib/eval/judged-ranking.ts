/**
 * A ranking joined with the judgments of its query: the input every measure kernel reads. Port of
 * trec_eval 9.0.8 form_res_rels.c (`RES_RELS`), whose conventions the kernels rely on:
 * - a retrieved document absent from the qrels gets grade {@link NOT_IN_POOL} (-1, `RELVALUE_NONPOOL`);
 * - a retrieved document judged with a negative grade gets {@link JUDGED_UNJUDGED} (-2,
 *   `RELVALUE_UNJUDGED`: "in the pool but not judged", used by infAP);
 * - a document is relevant when its grade ≥ the relevance level (`-l`, default 1). Kernels compare the
 *   sentinel grades too, exactly as trec_eval does, so `-l 0` treats judged-0 documents as relevant but
 *   never unjudged ones;
 * - `gradeCounts` counts every judged document of the query with a grade ≥ 0 (retrieved or not): the
 *   ideal rankings of nDCG and the number of relevant documents come from it.
 */

export const NOT_IN_POOL = -1;
export const JUDGED_UNJUDGED = -2;

export interface JudgedRanking {
  /** Grade of the document at each rank (index 0 is rank 1), or one of the two negative sentinels. */
  grades: readonly number[];
  /** Documents in the (possibly `-M`-cut) ranking. */
  numRet: number;
  /** Judged documents with grade ≥ relevance level (and ≥ 0), retrieved or not. */
  numRel: number;
  /** Retrieved documents that are judged, with grade ≥ relevance level. */
  numRelRet: number;
  /** Judged documents per grade ≥ 0, as [grade, count] pairs sorted by increasing grade, counts > 0. */
  gradeCounts: ReadonlyArray<readonly [grade: number, count: number]>;
  /** The relevance level these counts were made with. */
  relevanceLevel: number;
}

/**
 * Joins the evaluated document ids of one query (see `rankForEvaluation`) with its judgments.
 * `judgments` may be empty or missing (query absent from the qrels: everything is not in the pool).
 */
export function judgeRanking(
  docIds: readonly string[],
  judgments: ReadonlyMap<string, number> | undefined,
  relevanceLevel = 1,
): JudgedRanking {
  const grades = new Array<number>(docIds.length);
  let numRelRet = 0;
  for (let i = 0; i < docIds.length; i++) {
    const grade = judgments?.get(docIds[i]!);
    if (grade === undefined) {
      grades[i] = NOT_IN_POOL;
    } else if (grade < 0) {
      grades[i] = JUDGED_UNJUDGED;
    } else {
      grades[i] = grade;
      if (grade >= relevanceLevel) numRelRet++;
    }
  }

  const counts = new Map<number, number>();
  for (const grade of judgments?.values() ?? []) {
    if (grade >= 0) counts.set(grade, (counts.get(grade) ?? 0) + 1);
  }
  const gradeCounts = [...counts].sort((a, b) => a[0] - b[0]);
  let numRel = 0;
  for (const [grade, count] of gradeCounts) if (grade >= relevanceLevel) numRel += count;

  return { grades, numRet: docIds.length, numRel, numRelRet, gradeCounts, relevanceLevel };
}

/** trec_eval's `num_rel_levels`: one more than the highest grade judged at least once (0 if none). */
export function numRelLevels(ranking: JudgedRanking): number {
  const last = ranking.gradeCounts[ranking.gradeCounts.length - 1];
  return last === undefined ? 0 : last[0] + 1;
}

/**
 * trec_eval `-J` (form_res_rels.c, `judged_docs_only_flag`): the ranking with every document outside the
 * pool or unjudged removed, the judged ones keeping their order. Judgment counts are unchanged.
 */
export function judgedOnly(ranking: JudgedRanking): JudgedRanking {
  const grades = ranking.grades.filter((grade) => grade >= 0);
  return { ...ranking, grades, numRet: grades.length };
}

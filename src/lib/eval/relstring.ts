import { JUDGED_UNJUDGED, NOT_IN_POOL, type JudgedRanking } from './judged-ranking.ts';

/**
 * trec_eval `relstring.N` (m_relstring.c, default N = 10): the grades of the first N retrieved documents as
 * one character each — the digit for 0–9, '>' above 9, '-' outside the pool, '.' in the pool but
 * unjudged, '<' for any other negative grade. Printed per query only, between single quotes.
 */
export function relString(ranking: JudgedRanking, length: number): string {
  const n = Math.max(0, Math.min(Math.trunc(length), ranking.numRet));
  let text = '';
  for (let i = 0; i < n; i++) {
    const grade = ranking.grades[i]!;
    if (grade > 9) text += '>';
    else if (grade >= 0) text += String(grade);
    else if (grade === NOT_IN_POOL) text += '-';
    else if (grade === JUDGED_UNJUDGED) text += '.';
    else text += '<';
  }
  return text;
}

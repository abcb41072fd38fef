import { Fingerprint } from '../data/fingerprint.ts';
import type { Qrels, Query } from '../types.ts';

/**
 * What an evaluation was computed on, as short strings a stored evaluation keeps: judgments change as a
 * person judges, and queries as they are added or rephrased, so a stored report is reused only while both
 * are as they were. `<count>:<FNV-1a>` (storage/fingerprint.ts): cheap, not cryptographic.
 */

/** Every judgment (query, document, grade) in map order. */
export function qrelsFingerprint(qrels: Qrels): string {
  const fingerprint = new Fingerprint();
  let judgments = 0;
  for (const [queryId, docs] of qrels) {
    fingerprint.add(queryId);
    for (const [docId, grade] of docs) {
      fingerprint.add(docId).add(String(grade));
      judgments += 1;
    }
  }
  return `${judgments}:${fingerprint.hex()}`;
}

/** The ids and texts of the queries a run ranks, in order. */
export function queriesFingerprint(queries: readonly Query[]): string {
  const fingerprint = new Fingerprint();
  for (const query of queries) fingerprint.add(query.id).add(query.text);
  return `${queries.length}:${fingerprint.hex()}`;
}

/**
 * Term-at-a-time scoring: every posting of every clause adds its term score into a float64 sum per
 * document (the reference's own method, src/lib/bm25/bm25-search.ts). The float64 sum of a few float32
 * scores is exact, so the order of the terms does not change any score, and rounding the sum to float32 at
 * the end gives Lucene's score.
 *
 * Matching documents are marked in a bitset (no branch per posting), then visited in increasing docid
 * order — the order Lucene's collector sees them — and handed to the top-k selection (`select.ts`).
 * Cost: linear in the postings of the query's terms, with the fewest operations per posting; the right
 * choice when k is large next to the number of matching documents (nothing can be skipped then).
 */
import { DocScratch, Postings } from './postings';
import { Query, clauseOrdinal, clauseWeight, postingX, saturate, termEnd, termStart } from './scoring';
import { candidatesAdd, candidatesReset, candidatesTop } from './select';

/** Adds one clause's term scores into the per-document sums and marks its documents. */
function accumulate(ordinal: u32, weight: f32): void {
  const sums = DocScratch.sums;
  const matched = DocScratch.matched;
  const docs = Postings.docs;
  const end = termEnd(ordinal);
  for (let p = termStart(ordinal); p < end; p++) {
    const doc = load<u32>(docs + (<usize>p << 2));
    const score = saturate(weight, postingX(p, doc));
    const sum = sums + (<usize>doc << 3);
    store<f64>(sum, load<f64>(sum) + <f64>score);
    const word = matched + (<usize>(doc >>> 5) << 2);
    store<u32>(word, load<u32>(word) | (1 << (doc & 31)));
  }
}

/** Unmarks excluded documents so they are never offered (their sums are cleared on the way). */
function dropExcluded(count: u32): void {
  for (let i: u32 = 0; i < count; i++) {
    const doc = load<u32>(Query.excluded + (<usize>i << 2));
    if (doc >= Postings.numDocs) continue;
    const word = DocScratch.matched + (<usize>(doc >>> 5) << 2);
    store<u32>(word, load<u32>(word) & ~(1 << (doc & 31)));
    store<f64>(DocScratch.sums + (<usize>doc << 3), 0);
  }
}

/** Lists every marked document in docid order with its score, clearing marks and sums for the next query. */
function collect(): void {
  const sums = DocScratch.sums;
  const matched = DocScratch.matched;
  const words = (Postings.numDocs + 31) >>> 5;
  for (let w: u32 = 0; w < words; w++) {
    const at = matched + (<usize>w << 2);
    let word = load<u32>(at);
    if (word == 0) continue;
    store<u32>(at, 0);
    const base = w << 5;
    while (word != 0) {
      const doc = base + ctz<u32>(word);
      word &= word - 1;
      const sum = sums + (<usize>doc << 3);
      candidatesAdd(doc, <f32>load<f64>(sum));
      store<f64>(sum, 0);
    }
  }
}

/** Top k of the query into the result buffers, best first; returns how many. */
export function searchTermAtATime(numClauses: u32, numExcluded: u32, k: u32): u32 {
  for (let c: u32 = 0; c < numClauses; c++) accumulate(clauseOrdinal(c), clauseWeight(c));
  dropExcluded(numExcluded);
  candidatesReset();
  collect();
  return candidatesTop(k, DocScratch.outDocs, DocScratch.outScores);
}

/**
 * Rankings of rows (row-ranking.ts) measure exactly as the same rankings as hit objects: trec_eval's order
 * (ties by decreasing id, a list out of order sorted), duplicates refused exactly when they fall above `-M`,
 * the dashboard's report, judged@10 and its condensed report, and the packed form stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packRun } from '../../../src/lib/data/packed-run.ts';
import { condenseRun, judgedAtK } from '../../../src/lib/eval/judged.ts';
import { DuplicateDocumentError, rankForEvaluation } from '../../../src/lib/hits/trec-order.ts';
import { cutRows, filterRows, hitsOf, rowRankings, runOfRanked, type RankedRun, type RowRanking } from '../../../src/lib/hits/row-ranking.ts';
import { evaluateRunReport } from '../../../src/lib/eval/run-report.ts';
import { unpackRanking } from '../../../src/lib/hits/packed-hits.ts';
import type { Qrels } from '../../../src/lib/types.ts';

const TABLE = Array.from({ length: 40 }, (_, i) => `doc${i}`);

/** A ranking of rows of TABLE (scores from a few values, so ties are common; rows may repeat). */
const rowRanking = (options: { distinct?: boolean } = {}) =>
  (options.distinct ? fc.uniqueArray(fc.nat({ max: TABLE.length - 1 }), { maxLength: 30 }) : fc.array(fc.nat({ max: TABLE.length - 1 }), { maxLength: 30 })).chain((rows) =>
    fc.array(fc.constantFrom(0.5, 1, 2, 3), { minLength: rows.length, maxLength: rows.length }).map(
      (scores): RowRanking => ({ table: TABLE, rows: Uint32Array.from(rows), scores: Float64Array.from(scores) }),
    ),
  );

/** Judgments of some of TABLE's documents for queries q0…q4 (grades −1…2). */
const qrelsArb = fc.array(fc.array(fc.tuple(fc.nat({ max: TABLE.length - 1 }), fc.integer({ min: -1, max: 2 })), { maxLength: 15 }), { minLength: 5, maxLength: 5 }).map(
  (lists): Qrels => new Map(lists.map((judged, q) => [`q${q}`, new Map(judged.map(([row, grade]) => [TABLE[row]!, grade]))])),
);

function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return error instanceof DuplicateDocumentError ? `duplicate ${error.docId}` : error;
  }
}

describe('rankings of rows', () => {
  it('are ranked for evaluation as their hits are, at every -M, duplicates included', () => {
    fc.assert(
      fc.property(rowRanking(), fc.constantFrom(Infinity, 0, 3, 10), (list, maxDocs) => {
        expect(outcome(() => rankForEvaluation('q', list, maxDocs))).toEqual(outcome(() => rankForEvaluation('q', hitsOf(list), maxDocs)));
        // Twice: the second answer comes from the ranking remembered with the list.
        expect(outcome(() => rankForEvaluation('q', list, maxDocs))).toEqual(outcome(() => rankForEvaluation('q', hitsOf(list), maxDocs)));
      }),
    );
  });

  it('give the dashboard report, judged@10, the condensed report and the stored form of their hits', () => {
    fc.assert(
      fc.property(fc.array(rowRanking({ distinct: true }), { minLength: 5, maxLength: 5 }), qrelsArb, (lists, qrels) => {
        const rows: RankedRun = new Map(lists.map((list, q) => [`q${q}`, list]));
        const hits = runOfRanked(rows);
        expect(evaluateRunReport(qrels, rows)).toEqual(evaluateRunReport(qrels, hits));
        expect(judgedAtK(rows, qrels, 10)).toEqual(judgedAtK(hits, qrels, 10));
        expect(runOfRanked(condenseRun(rows, qrels))).toEqual(condenseRun(hits, qrels));
        expect(packRun(rows)).toEqual(packRun(hits));
      }),
    );
  });

  it('are views of a packed answer, cut and filtered without touching it, and unpacked with their rows remembered', () => {
    const packed = { offsets: Uint32Array.of(0, 3, 3, 5), rows: Uint32Array.of(4, 1, 4, 7, 2), scores: Float64Array.of(9, 8, 7, 6, 5) };
    const [first, empty, last] = rowRankings(packed, TABLE);
    expect(hitsOf(first!)).toEqual([
      { docId: 'doc4', score: 9 },
      { docId: 'doc1', score: 8 },
      { docId: 'doc4', score: 7 },
    ]);
    expect(hitsOf(empty!)).toEqual([]);
    expect(hitsOf(cutRows(last!, 1))).toEqual([{ docId: 'doc7', score: 6 }]);
    expect(hitsOf(filterRows(first!, (docId) => docId !== 'doc4'))).toEqual([{ docId: 'doc1', score: 8 }]);
    expect(Array.from(packed.rows)).toEqual([4, 1, 4, 7, 2]);
    expect(() => rowRankings({ ...packed, rows: Uint32Array.of(4, 1, 4, 7, 40) }, TABLE)).toThrow(/row 40 is outside the table of 40/);
    expect(unpackRanking(last!)).toEqual(hitsOf(last!));
  });
});

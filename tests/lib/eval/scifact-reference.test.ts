/**
 * The SciFact BM25 figures of shared/reference/REFERENCE.md ("Measured here … trec_eval 9.0.8 -c"),
 * recomputed from the reference run scifact-test.lucene-bm25-flat.top100.run and BEIR's test qrels.
 * Only cut measures are compared: the run file holds the top 100 per query, while the table's MRR
 * (0.6506, uncut recip_rank) was measured on a deeper ranking; on this file recip_rank is 0.6504.
 */
import { createReadStream } from 'node:fs';
import { expect, it } from 'vitest';
import { readTrecRun } from '../../../src/lib/data/trec.ts';
import { evaluate } from '../../../src/lib/eval/evaluate.ts';
import { formatValue } from '../../../src/lib/eval/trec-eval-output.ts';
import type { Qrels } from '../../../src/lib/types.ts';
import { readQrels } from '../../../src/lib/data/qrels.ts';
import { shared } from '../../shared-dir.ts';

/** BEIR's qrels TSV (header line, then `query-id corpus-id score`) through the data layer's parser. */
function readBeirQrels(path: string): Promise<Qrels> {
  return readQrels(createReadStream(path), { file: path });
}

it('reproduces REFERENCE.md SciFact BM25 flat: nDCG@10 0.6789, R@100 0.9253, MAP@100 0.6398, P@10 0.0883 (trec_eval -c)', async () => {
  const qrels = await readBeirQrels(shared('beir', 'scifact', 'qrels', 'test.tsv'));
  const file = shared('reference', 'scifact-test.lucene-bm25-flat.top100.run');
  const { run } = await readTrecRun(createReadStream(file), { file });
  const result = evaluate(qrels, run, { measures: ['ndcg_cut.10', 'recall.100', 'map_cut.100', 'P.10', 'num_q'], complete: true });
  const printed = Object.fromEntries(result.columns.map((column) => [column.name, formatValue(column, result.all[column.name]!)]));
  expect(printed).toEqual({ num_q: '300', ndcg_cut_10: '0.6789', recall_100: '0.9253', map_cut_100: '0.6398', P_10: '0.0883' });
});

/**
 * The shared BEIR SciFact copy, loaded as the CLI loads a dataset, and its corpus parsed from Node file
 * streams. Expected counts come from shared/README.md (5,183 docs; 1,109 queries; test 339 pairs / 300
 * queries; train 919 / 809).
 */
import { createReadStream, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { parseCorpus } from '../../../src/lib/data/corpus.ts';
import type { Doc } from '../../../src/lib/types.ts';
import { shared } from '../../shared-dir.ts';
import { collect } from './sources.ts';

const pairs = (qrels: Map<string, Map<string, number>>) => [...qrels.values()].reduce((sum, docs) => sum + docs.size, 0);

describe('SciFact (shared/README.md counts)', () => {
  it('loads 5,183 docs, 1,109 queries, test 339 pairs / 300 queries, train 919 / 809, with a clean report', async () => {
    const { docs, queries, qrels, report } = await loadDataset(shared('beir', 'scifact'));
    expect(docs).toHaveLength(5183);
    expect(queries.size).toBe(1109);
    expect([pairs(qrels.get('test')!), qrels.get('test')!.size]).toEqual([339, 300]);
    expect([pairs(qrels.get('train')!), qrels.get('train')!.size]).toEqual([919, 809]);
    expect(report.corpus).toMatchObject({ docs: 5183, emptyDocs: [], skipped: [], duplicates: [] });
    expect(report.queries).toMatchObject({ queries: 1109, emptyQueries: [], unjudged: [], skipped: [], duplicates: [] });
    for (const split of report.splits) {
      expect(split).toMatchObject({ header: 'query-id\tcorpus-id\tscore', unknownDocs: [], unknownQueries: [], withoutRelevant: [], skipped: [], duplicates: [] });
    }
    expect(report.splits.map((s) => [s.split, s.evaluableQueries, s.grades])).toEqual([
      ['test', 300, [{ grade: 1, pairs: 339 }]],
      ['train', 809, [{ grade: 1, pairs: 919 }]],
    ]);
  });

  it('gives every document exactly as a whole-file JSON.parse of each line does', async () => {
    const path = shared('beir', 'scifact', 'corpus.jsonl');
    const reference: Doc[] = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => {
        const { _id, title, text } = JSON.parse(line) as { _id: string; title: string; text: string };
        return { id: _id, title, text };
      });
    expect(await collect(parseCorpus(createReadStream(path)))).toEqual(reference);
  });

  it('reads identical documents from corpus.jsonl and corpus.jsonl.gz', async () => {
    const plain = await collect(parseCorpus(createReadStream(shared('beir', 'scifact', 'corpus.jsonl'))));
    const gz = await collect(parseCorpus(createReadStream(shared('beir', 'scifact', 'corpus.jsonl.gz'), { highWaterMark: 4096 })));
    expect(gz).toEqual(plain);
  });
});

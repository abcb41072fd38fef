import { unzipSync, strFromU8 } from 'fflate';
import { expect, test } from 'vitest';
import { writeBeirZip } from '../../../src/lib/data/beir-zip.ts';
import { folderName } from '../../../src/lib/data/folder-name.ts';
import type { Doc, Qrels, Query } from '../../../src/lib/types.ts';

async function* batches(docs: readonly Doc[], size: number): AsyncGenerator<Doc[]> {
  for (let i = 0; i < docs.length; i += size) yield docs.slice(i, i + size);
}

function joined(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

const DOCS: Doc[] = Array.from({ length: 1203 }, (_, i) => ({
  id: `d${i}`,
  title: i % 3 === 0 ? '' : `Title ${i}`,
  text: `text of "document" ${i}\twith a tab, ünïcode and a\nnewline`,
  ...(i === 5 ? { metadata: { url: 'https://example.org/5' } } : {}),
}));
const QUERIES: Query[] = [
  { id: 'q1', text: 'first query' },
  { id: 'q2', text: 'second', metadata: { narrative: 'Relevant: documents about the second thing.' } },
];
const MINE: Qrels = new Map([['q2', new Map([['d7', 2], ['d1', 0]])], ['q1', new Map([['d3', 1]])]]);

test("BEIR's layout: <folder>/corpus.jsonl, queries.jsonl, qrels/<split>.tsv; empty splits and no queries leave files out", async () => {
  const chunks = await writeBeirZip({
    folder: 'my-corpus',
    documents: batches(DOCS, 500),
    queries: QUERIES,
    qrels: new Map([['my-judgments', MINE], ['empty', new Map()]]),
  });
  const files = unzipSync(joined(chunks));
  expect(Object.keys(files)).toEqual(['my-corpus/corpus.jsonl', 'my-corpus/queries.jsonl', 'my-corpus/qrels/my-judgments.tsv']);

  const corpusLines = strFromU8(files['my-corpus/corpus.jsonl']!).split('\n');
  expect(corpusLines).toHaveLength(DOCS.length + 1);
  expect(corpusLines.at(-1)).toBe('');
  // BEIR's key order, every document back as it was.
  expect(corpusLines[0]).toBe(JSON.stringify({ _id: 'd0', title: '', text: DOCS[0]!.text }));
  expect(corpusLines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual(
    DOCS.map((doc) => ({ _id: doc.id, title: doc.title, text: doc.text, ...(doc.metadata ? { metadata: doc.metadata } : {}) })),
  );
  expect(strFromU8(files['my-corpus/queries.jsonl']!)).toBe(
    '{"_id":"q1","text":"first query"}\n{"_id":"q2","text":"second","metadata":{"narrative":"Relevant: documents about the second thing."}}\n',
  );
  expect(strFromU8(files['my-corpus/qrels/my-judgments.tsv']!)).toBe('query-id\tcorpus-id\tscore\nq2\td7\t2\nq2\td1\t0\nq1\td3\t1\n');

  const bare = unzipSync(joined(await writeBeirZip({ folder: 'x', documents: batches(DOCS.slice(0, 2), 5), queries: [], qrels: new Map() })));
  expect(Object.keys(bare)).toEqual(['x/corpus.jsonl']);
});

test('folder names are file-system safe', () => {
  expect(folderName('Kitchen notes (v2)')).toBe('Kitchen-notes-v2');
  expect(folderName('Café ü')).toBe('Cafe-u');
  expect(folderName('***')).toBe('collection');
});

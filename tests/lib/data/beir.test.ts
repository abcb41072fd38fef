import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { judgedQueries, loadBeir, type BeirSources, type LoadProgress, type NamedByteSource } from '../../../src/lib/data/beir.ts';
import { chunked, encode, expectParseError, webStream } from './sources.ts';

const source = (file: string, text: string | Uint8Array): NamedByteSource => {
  const bytes = typeof text === 'string' ? encode(text) : text;
  return { file, size: bytes.length, open: () => chunked(bytes, [16]) };
};
const jsonl = (...records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

function sources(overrides: Partial<BeirSources> = {}): BeirSources {
  return {
    corpus: source('corpus.jsonl', jsonl({ _id: 'd1', title: 'A', text: 'a' }, { _id: 'd2', title: 'B', text: 'b' }, { _id: 'd1', title: 'A again', text: '' })),
    queries: source('queries.jsonl', jsonl({ _id: 'q1', text: 'one' }, { _id: 'q2', text: 'two' }, { _id: 'q3', text: 'three' })),
    qrels: new Map([
      ['test', source('qrels/test.tsv', 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\n')],
      ['train', source('qrels/train.tsv', 'q2\td2\t1\nq2\td7\t1\n')],
    ]),
    ...overrides,
  };
}

describe('loadBeir', () => {
  it('loads docs, queries, qrels per split and a report that carries what the parsers noticed', async () => {
    const { docs, queries, qrels, report } = await loadBeir(sources());
    expect(docs.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(docs[0]!.title).toBe('A');
    expect([...queries.keys()]).toEqual(['q1', 'q2', 'q3']);
    expect([...qrels.keys()]).toEqual(['test', 'train']);
    expect(qrels.get('test')!.get('q1')).toEqual(new Map([['d1', 1], ['d2', 0]]));
    expect(report.corpus.duplicates).toEqual([{ file: 'corpus.jsonl', id: 'd1', line: 3, firstLine: 1 }]);
    expect(report.queries.unjudged).toEqual(['q3']);
    expect(report.splits.map((s) => [s.split, s.header, s.pairs, s.queries, s.unknownDocs.length])).toEqual([
      ['test', 'query-id\tcorpus-id\tscore', 2, 1, 0],
      ['train', null, 2, 1, 1],
    ]);
  });

  it('reads web streams and gzip just the same', async () => {
    const corpus = encode(jsonl({ _id: 'd1', text: 'a' }));
    const loaded = await loadBeir(
      sources({
        corpus: { file: 'corpus.jsonl.gz', open: () => webStream(new Uint8Array(gzipSync(corpus))) },
        qrels: new Map([['test', { file: 'test.tsv', open: async () => webStream(encode('q1\td1\t1\n')) }]]),
      }),
    );
    expect(loaded.docs).toEqual([{ id: 'd1', title: '', text: 'a' }]);
    expect(loaded.report.corpus.file).toBe('corpus.jsonl.gz');
  });

  it('throws the first ParseError by default, naming the file and line', async () => {
    const bad = sources({ queries: source('data/queries.jsonl', jsonl({ _id: 'q1', text: 'x' }) + '{"_id": 5, "text": "y"}\n') });
    await expectParseError(() => loadBeir(bad), { file: 'data/queries.jsonl', line: 2, kind: 'invalid-field' });
  });

  it("with onError 'skip' puts every skipped line in the report", async () => {
    const bad = sources({
      corpus: source('corpus.jsonl', jsonl({ _id: 'd1', text: 'a' }) + '{broken\n'),
      qrels: new Map([['test', source('qrels/test.tsv', 'q1\td1\t1\nq1\td1\tx\n')]]),
    });
    const { docs, report } = await loadBeir(bad, { onError: 'skip' });
    expect(docs).toHaveLength(1);
    expect(report.corpus.skipped).toMatchObject([{ file: 'corpus.jsonl', line: 2, kind: 'invalid-json' }]);
    expect(report.splits[0]!.skipped).toMatchObject([{ file: 'qrels/test.tsv', line: 2, kind: 'invalid-number' }]);
  });

  it('turns a failure to open a file into an io ParseError naming it', async () => {
    const missing = sources({
      queries: {
        file: 'https://example.org/queries.jsonl',
        open: () => {
          throw new Error('404 Not Found');
        },
      },
    });
    await expectParseError(() => loadBeir(missing), { file: 'https://example.org/queries.jsonl', line: 0, kind: 'io', reason: /404/ });
  });

  it('reports progress per part with the known file size, ending at the full size', async () => {
    const seen: LoadProgress[] = [];
    const all = sources();
    await loadBeir(all, { onProgress: (p) => seen.push(p) });
    const last = (part: string, split?: string) => seen.filter((p) => p.part === part && p.split === split).at(-1);
    expect(last('corpus')).toEqual({ part: 'corpus', split: undefined, file: 'corpus.jsonl', lines: 3, bytes: all.corpus.size, totalBytes: all.corpus.size });
    expect(last('qrels', 'train')).toMatchObject({ file: 'qrels/train.tsv', lines: 2 });
  });

  it('stops when aborted before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(loadBeir(sources(), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('judgedQueries', () => {
  it('keeps the queries judged in the split (any grade), in queries-file order', async () => {
    const { queries, qrels } = await loadBeir(sources());
    expect(judgedQueries(queries, qrels.get('test')!).map((q) => q.id)).toEqual(['q1']);
    expect(judgedQueries(queries, qrels.get('train')!).map((q) => q.id)).toEqual(['q2']);
  });
});

/**
 * Parity with Lucene 8.7's PolishAnalyzer (StandardTokenizer → LowerCaseFilter → StopFilter → StempelFilter)
 * and Lucene BM25 on the manpages-pl reference collection. References, read in place from
 * shared/reference/polish/ (README.md there says how they were made with Debian's liblucene8-java):
 *   - lucene-tokens-corpus.jsonl.gz / lucene-tokens-queries-test.jsonl.gz: PolishAnalyzer's terms of every
 *     document (`title + " " + text`) and query (`text`);
 *   - wordlist-stems.tsv.gz: PolishAnalyzer applied to each of 20,000 words alone (empty for a stop word);
 *   - lucene-bm25-test.run: Lucene BM25 (k1 0.9, b 0.4) top 1,000 per query, scores printed with 6 decimals;
 *   - README.md's table: nDCG@10 0.2973 and R@100 0.3828 (trec_eval 9.0.8 -c).
 * Every goal is exact: 0 differing documents, queries and stems; top 100 and printed scores identical.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { prepareAnalyzer } from '../../../src/lib/analysis/analyzers.ts';
import { polishAnalyzer, polishTerm } from '../../../src/lib/analysis/polish-analyzer.ts';
import { buildBm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { bm25DocText } from '../../../src/lib/services/bm25-service.ts';
import { Bm25WasmBuilder } from '../../../src/lib/bm25-wasm/wasm-builder.ts';
import type { BeirCollection } from '../../../src/lib/data/beir.ts';
import { readTrecRun } from '../../../src/lib/data/trec.ts';
import { evaluate } from '../../../src/lib/eval/evaluate.ts';
import { formatValue } from '../../../src/lib/eval/trec-eval-output.ts';
import type { Hit, Run } from '../../../src/lib/types.ts';
import { kernelModule } from '../bm25-wasm/fixtures.ts';
import { shared } from '../../shared-dir.ts';

const REFERENCE = ['reference', 'polish'] as const;

function gunzipLines(file: string): string[] {
  return gunzipSync(readFileSync(shared(...REFERENCE, file)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
}

function referenceTokens(file: string): Map<string, string[]> {
  return new Map(
    gunzipLines(file).map((line) => {
      const { _id, tokens } = JSON.parse(line) as { _id: string; tokens: string[] };
      return [_id, tokens] as const;
    }),
  );
}

function countMismatches(label: string, ours: Map<string, string[]>, lucene: Map<string, string[]>): number {
  expect([...ours.keys()].sort()).toEqual([...lucene.keys()].sort());
  const differing = [...ours].filter(([id, terms]) => JSON.stringify(terms) !== JSON.stringify(lucene.get(id)));
  console.log(`${label}: ${differing.length} of ${ours.size} differ from Lucene 8.7 PolishAnalyzer`);
  for (const [id, terms] of differing.slice(0, 3)) {
    const expected = lucene.get(id)!;
    let i = 0;
    while (expected[i] === terms[i]) i++;
    console.log(`  ${id} at term ${i}: lucene ${JSON.stringify(expected.slice(i, i + 4))}, ours ${JSON.stringify(terms.slice(i, i + 4))}`);
  }
  return differing.length;
}

interface PrintedHit {
  docId: string;
  /** The score as Lucene printed it (6 decimals, exact halves up, as Number.toFixed does). */
  printed: string;
}

/**
 * The run in Lucene's rank order (readTrecRun re-sorts ties as trec_eval does, by descending id; Lucene
 * breaks ties by corpus order, which is what the top-100 comparison checks).
 */
function readRunInFileOrder(): Map<string, PrintedHit[]> {
  const run = new Map<string, PrintedHit[]>();
  for (const line of readFileSync(shared(...REFERENCE, 'lucene-bm25-test.run'), 'utf8').split('\n')) {
    if (line === '') continue;
    const [queryId, , docId, , printed] = line.split(' ') as [string, string, string, string, string];
    run.set(queryId, [...(run.get(queryId) ?? []), { docId, printed }]);
  }
  return run;
}

const ids = (hits: readonly { docId: string }[]) => hits.map((hit) => hit.docId).join(' ');

describe('polishAnalyzer and BM25 equal Lucene 8.7 on manpages-pl (shared/reference/polish)', () => {
  let collection: BeirCollection;
  let docTerms: Map<string, string[]>;
  let queryTerms: Map<string, string[]>;
  let lucene: Map<string, PrintedHit[]>;

  beforeAll(async () => {
    collection = await loadDataset(shared(...REFERENCE, 'manpages-pl'));
    await prepareAnalyzer('polish');
    const analyzer = polishAnalyzer();
    const started = performance.now();
    docTerms = new Map(collection.docs.map((doc) => [doc.id, analyzer.analyze(bm25DocText(doc))] as const));
    console.log(`analyzed ${docTerms.size} documents in ${(performance.now() - started).toFixed(0)} ms (informational)`);
    queryTerms = new Map([...collection.queries.values()].map((query) => [query.id, analyzer.analyze(query.text)] as const));
    lucene = readRunInFileOrder();
  });

  it('analyzes the 6,860 documents exactly as Lucene (316,479 terms)', () => {
    expect(docTerms.size).toBe(6860);
    expect(countMismatches('documents', docTerms, referenceTokens('lucene-tokens-corpus.jsonl.gz'))).toBe(0);
    expect([...docTerms.values()].reduce((sum, terms) => sum + terms.length, 0)).toBe(316_479);
    // Offsets cover the text each term came from (every 40th document).
    for (const doc of collection.docs.filter((_, i) => i % 40 === 0)) {
      const text = bm25DocText(doc);
      const tokens = polishAnalyzer().analyzeWithOffsets(text);
      expect(tokens.map((t) => t.term)).toEqual(docTerms.get(doc.id));
      for (const t of tokens) expect(polishTerm(text.slice(t.start, t.end))).toBe(t.term);
    }
  });

  it('analyzes the 210 queries exactly as Lucene', () => {
    expect(queryTerms.size).toBe(210);
    expect(countMismatches('queries', queryTerms, referenceTokens('lucene-tokens-queries-test.jsonl.gz'))).toBe(0);
  });

  it('stems the 20,000 words of the word list exactly as Lucene (stop words give no term)', () => {
    const rows = gunzipLines('wordlist-stems.tsv.gz').map((line) => line.split('\t') as [string, string?]);
    expect(rows.length).toBe(20_000);
    const differing = rows.filter(([word, stem]) => (polishTerm(word) ?? '') !== (stem ?? ''));
    for (const [word, stem] of differing.slice(0, 10)) console.log(`  ${word}: lucene ${stem}, ours ${polishTerm(word)}`);
    expect(differing.length).toBe(0);
    expect(rows.filter(([word]) => polishTerm(word) === null).length).toBe(164);
  });

  function compareWithLucene(label: string, ours: Run): void {
    let sameTop100 = 0;
    let compared = 0;
    let samePrinted = 0;
    for (const [queryId, expected] of lucene) {
      const actual = ours.get(queryId) ?? [];
      if (ids(actual.slice(0, 100)) === ids(expected.slice(0, 100))) sameTop100 += 1;
      expected.slice(0, 100).forEach((hit, i) => {
        compared += 1;
        if (actual[i]?.docId === hit.docId && actual[i]!.score.toFixed(6) === hit.printed) samePrinted += 1;
      });
    }
    console.log(`${label}: top 100 identical for ${sameTop100}/${lucene.size} queries; ${samePrinted}/${compared} scores print as Lucene's`);
    expect(lucene.size).toBe(210);
    expect(sameTop100).toBe(210);
    expect(samePrinted).toBe(compared);
  }

  function ourRun(search: (terms: string[]) => Hit[]): Run {
    return new Map([...lucene.keys()].map((queryId) => [queryId, search(queryTerms.get(queryId)!)] as const));
  }

  it('BM25 (k1 0.9, b 0.4) ranks the top 100 of every query as Lucene, scores equal to the printed decimals', async () => {
    const index = buildBm25Index(collection.docs.map((doc) => ({ id: doc.id, terms: docTerms.get(doc.id)! })));
    const run = ourRun((terms) => searchBm25(index, { id: '', terms }, { k: 1000 }));
    compareWithLucene('TypeScript BM25', run);

    const qrels = collection.qrels.get('test')!;
    const measures = ['ndcg_cut.10', 'recall.100', 'num_q'];
    const printed = (r: Run) => {
      const result = evaluate(qrels, r, { measures, complete: true });
      return Object.fromEntries(result.columns.map((column) => [column.name, formatValue(column, result.all[column.name]!)]));
    };
    // README.md: nDCG@10 0.2973, R@100 0.3828 over 210 queries, for the reference run and for ours.
    const expected = { num_q: '210', ndcg_cut_10: '0.2973', recall_100: '0.3828' };
    const runFile = shared(...REFERENCE, 'lucene-bm25-test.run');
    const reference = (await readTrecRun(createReadStream(runFile), { file: runFile })).run;
    expect([...reference.values()].reduce((n, hits) => n + hits.length, 0)).toBe(158_360);
    expect(printed(reference)).toEqual(expected);
    expect(printed(run)).toEqual(expected);
  });

  it('the WebAssembly BM25 kernel gives the same top 100 and scores', async () => {
    const builder = new Bm25WasmBuilder(await kernelModule());
    for (const doc of collection.docs) builder.add(doc.id, docTerms.get(doc.id)!);
    const index = builder.build();
    compareWithLucene('WASM BM25', ourRun((terms) => index.search({ id: '', terms }, { k: 1000 })));
  });
});

/**
 * The weighted query syntax on every judged SciFact query (1,109: test + train): with no boosts typed, the
 * parsed bag is exactly Anserini's bag of words, and searching it as a weighted query gives today's
 * rankings and scores bit for bit, in the TypeScript reference and in the WASM kernel (each scoring
 * method). With random weights the two engines still agree bit for bit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { buildBm25Index, type Bm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { bagOfTerms, type QueryTermWeight } from '../../../src/lib/bm25/bm25-query.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { parseWeightedQuery } from '../../../src/lib/bm25/query-syntax.ts';
import { Bm25WasmBuilder } from '../../../src/lib/bm25-wasm/wasm-builder.ts';
import type { Bm25Strategy, Bm25WasmIndex } from '../../../src/lib/bm25-wasm/wasm-index.ts';
import type { Hit } from '../../../src/lib/types.ts';
import { analyzedSciFact, kernelModule } from '../bm25-wasm/fixtures.ts';

interface SciFactQuery {
  id: string;
  text: string;
  terms: string[];
}

const K = 1000;
const STRATEGIES: Bm25Strategy[] = ['auto', 'term-at-a-time', 'max-score'];

/** Document ids and the exact bits of every score, for whole-list comparison. */
const fingerprint = (hits: readonly Hit[]) => hits.map((hit) => `${hit.docId}:${hit.score}`).join(' ');

describe('weighted query syntax on SciFact (all 1,109 judged queries)', () => {
  let queries: SciFactQuery[];
  let reference: Bm25Index;
  let wasm: Bm25WasmIndex;

  beforeAll(async () => {
    const data = await analyzedSciFact();
    const texts = new Map([...data.collection.queries.values()].map((query) => [query.id, query.text]));
    queries = data.queries.map((query) => ({ ...query, text: texts.get(query.id)! }));
    reference = buildBm25Index(data.docs);
    const builder = new Bm25WasmBuilder(await kernelModule());
    for (const doc of data.docs) builder.add(doc.id, doc.terms);
    wasm = builder.build();
  }, 120_000);

  it('parses every query text (no boosts typed) to exactly the bag of its analyzed terms', () => {
    expect(queries).toHaveLength(1109);
    const analyzer = englishAnalyzer();
    let differing = 0;
    let withSyntaxCharacters = 0;
    for (const query of queries) {
      const parsed = parseWeightedQuery(query.text, analyzer);
      if (/(^|\s)\+\S|\^/.test(query.text)) withSyntaxCharacters += 1;
      if (JSON.stringify(parsed.terms) !== JSON.stringify(bagOfTerms(query.terms)) || parsed.errors.length > 0) differing += 1;
    }
    expect(differing).toBe(0);
    // The set includes queries like "… destabilizing +1 nucleosomes", whose "+1" reads as an added term.
    expect(withSyntaxCharacters).toBeGreaterThan(0);
  });

  it('scores the parsed weighted bags bit for bit as the plain queries, in TypeScript and in WASM', () => {
    const analyzer = englishAnalyzer();
    const mismatches: string[] = [];
    let hits = 0;
    for (const query of queries) {
      const weighted = parseWeightedQuery(query.text, analyzer).terms;
      const plain = fingerprint(searchBm25(reference, { id: query.id, terms: query.terms }, { k: K }));
      const ts = fingerprint(searchBm25(reference, { id: query.id, weighted }, { k: K }));
      if (ts !== plain) mismatches.push(`${query.id} ts`);
      for (const strategy of STRATEGIES) {
        if (fingerprint(wasm.search({ id: query.id, weighted }, { k: K, strategy })) !== plain) mismatches.push(`${query.id} wasm ${strategy}`);
      }
      hits += plain.split(' ').length;
    }
    expect(mismatches).toEqual([]);
    expect(hits).toBeGreaterThan(1_000_000);
  });

  it('gives the same rankings and float scores in both engines with random weights (zeros and added terms included)', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const mismatches: string[] = [];
    for (const query of queries.slice(0, 300)) {
      const weighted: QueryTermWeight[] = bagOfTerms(query.terms).map(({ term }) => ({
        term,
        weight: random() < 0.1 ? 0 : Math.fround(0.05 + random() * 4),
      }));
      // An expansion term from another query, at a small weight.
      const other = queries[Math.floor(random() * queries.length)]!.terms[0];
      if (other !== undefined) weighted.push({ term: other, weight: Math.fround(random() / 2) });
      for (const k of [10, K]) {
        const expected = fingerprint(searchBm25(reference, { id: query.id, weighted }, { k }));
        for (const strategy of STRATEGIES) {
          if (fingerprint(wasm.search({ id: query.id, weighted }, { k, strategy })) !== expected) mismatches.push(`${query.id} k=${k} ${strategy}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});

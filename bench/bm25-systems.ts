/**
 * The BM25 systems `npm run bench:bm25` compares, behind one interface. Every system indexes the same
 * analyzed tokens (Lucene EnglishAnalyzer terms of title + " " + text): ours take the token arrays, the
 * JavaScript libraries a string of those tokens joined by spaces with a tokenizer that splits on spaces and
 * a term processor that keeps every term as it is — so no library stems, lowercases or drops stop words
 * on its own. Where a library forces its own scoring, `notes` says so.
 */
import MiniSearch from 'minisearch';
import { create, insert, search as oramaSearch, type AnyOrama } from '@orama/orama';
import winkBm25 from 'wink-bm25-text-search';
import { buildBm25Index, type Bm25Index } from '../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../src/lib/bm25/bm25-search.ts';
import { ANSERINI_BM25_PARAMS } from '../src/lib/bm25/bm25-similarity.ts';
import { Bm25WasmBuilder } from '../src/lib/bm25-wasm/wasm-builder.ts';
import type { Bm25WasmIndex } from '../src/lib/bm25-wasm/wasm-index.ts';
import type { Hit } from '../src/lib/types.ts';

export interface BenchDoc {
  id: string;
  terms: readonly string[];
  /** The terms joined by single spaces (what the libraries index). */
  text: string;
}

export interface BenchQuery {
  id: string;
  terms: readonly string[];
  text: string;
}

export interface BenchSystem {
  /** Builds the index from scratch (timed). */
  build(docs: readonly BenchDoc[]): void;
  /** Top-k hits, best first, the document whose id equals the query id left out (as Pyserini does). */
  search(query: BenchQuery, k: number): Hit[];
}

export interface SystemInfo {
  key: SystemKey;
  label: string;
  /** Whether it is one of the JavaScript libraries the goals compare against. */
  peer: boolean;
  notes: string;
  create: (module: WebAssembly.Module) => BenchSystem;
}

export type SystemKey = 'wasm' | 'ts' | 'minisearch' | 'wink' | 'orama';

const { k1, b } = ANSERINI_BM25_PARAMS;
const splitTokens = (text: string): string[] => (text === '' ? [] : text.split(' '));

/** Hits without the query's own id, at most k. */
function dropIdentical(hits: Iterable<Hit>, queryId: string, k: number): Hit[] {
  const out: Hit[] = [];
  for (const hit of hits) {
    if (out.length === k) break;
    if (hit.docId !== queryId) out.push(hit);
  }
  return out;
}

function wasmSystem(module: WebAssembly.Module): BenchSystem {
  let index: Bm25WasmIndex | undefined;
  return {
    build(docs) {
      const builder = new Bm25WasmBuilder(module);
      for (const doc of docs) builder.add(doc.id, doc.terms);
      index = builder.build();
    },
    search(query, k) {
      return index!.search({ id: query.id, terms: query.terms }, { k });
    },
  };
}

function tsSystem(): BenchSystem {
  let index: Bm25Index | undefined;
  return {
    build(docs) {
      index = buildBm25Index(docs);
    },
    search(query, k) {
      return searchBm25(index!, { id: query.id, terms: query.terms }, { k });
    },
  };
}

function miniSearchSystem(): BenchSystem {
  let engine: MiniSearch<BenchDoc> | undefined;
  return {
    build(docs) {
      engine = new MiniSearch<BenchDoc>({
        fields: ['text'],
        idField: 'id',
        tokenize: splitTokens,
        processTerm: (term) => term,
        searchOptions: { bm25: { k: k1, b, d: 0 } },
      });
      engine.addAll(docs);
    },
    search(query, k) {
      const results = engine!.search(query.text);
      return dropIdentical(
        results.map((result) => ({ docId: String(result.id), score: result.score })),
        query.id,
        k,
      );
    },
  };
}

interface WinkEngine {
  defineConfig(config: { fldWeights: Record<string, number>; bm25Params: { k1: number; b: number; k: number } }): void;
  definePrepTasks(tasks: Array<(input: string) => string[]>): void;
  addDoc(doc: { text: string }, id: string): void;
  consolidate(precision?: number): void;
  search(text: string, limit: number): Array<[string, number]>;
}

function winkSystem(): BenchSystem {
  let engine: WinkEngine | undefined;
  return {
    build(docs) {
      engine = winkBm25() as WinkEngine;
      engine.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1, b, k: 1 } });
      engine.definePrepTasks([splitTokens]);
      for (const doc of docs) engine.addDoc({ text: doc.text }, doc.id);
      engine.consolidate();
    },
    search(query, k) {
      // One extra in case the query's own id is among them.
      const results = engine!.search(query.text, k + 1);
      return dropIdentical(results.map(([docId, score]) => ({ docId, score })), query.id, k);
    },
  };
}

function oramaSystem(): BenchSystem {
  let db: AnyOrama | undefined;
  return {
    build(docs) {
      db = create({
        schema: { text: 'string' } as const,
        components: {
          tokenizer: {
            language: 'english',
            normalizationCache: new Map(),
            // Orama's own tokenizer returns each term once per text (allowDuplicates: false); kept that way
            // because with repeated tokens Orama counts every occurrence as a document in its idf.
            tokenize: (raw: string) => [...new Set(splitTokens(raw))],
          },
        },
      });
      for (const doc of docs) insert(db, { id: doc.id, text: doc.text });
    },
    search(query, k) {
      const result = oramaSearch(db!, {
        term: query.text,
        properties: ['text'],
        limit: k + 1,
        threshold: 1,
        relevance: { k: k1, b, d: 0 },
      });
      if (result instanceof Promise) throw new Error('Orama search went async');
      return dropIdentical(result.hits.map((hit) => ({ docId: String(hit.id), score: hit.score })), query.id, k);
    },
  };
}

export const SYSTEMS: readonly SystemInfo[] = [
  {
    key: 'wasm',
    label: 'ours: WASM kernel',
    peer: false,
    notes: 'Lucene 8.7 BM25 exactly (k1 0.9, b 0.4); k1/b/k live',
    create: wasmSystem,
  },
  {
    key: 'ts',
    label: 'ours: TS reference',
    peer: false,
    notes: 'Lucene 8.7 BM25 exactly (k1 0.9, b 0.4); k1/b/k live',
    create: tsSystem,
  },
  {
    key: 'minisearch',
    label: 'MiniSearch 7.2',
    peer: true,
    notes: 'bm25 {k 0.9, b 0.4, d 0}; forced: length = distinct terms, score × number of matched query terms',
    create: miniSearchSystem,
  },
  {
    key: 'wink',
    label: 'wink-bm25-text-search 3.1',
    peer: true,
    notes: 'k1 0.9, b 0.4, k 1 (= Lucene idf); forced: term scores rounded to 4 decimals, fixed at build',
    create: winkSystem,
  },
  {
    key: 'orama',
    label: 'Orama 3.1',
    peer: true,
    notes: 'relevance {k 0.9, b 0.4, d 0}; forced: tf = 1 / distinct terms of the doc (each term once)',
    create: oramaSystem,
  },
];

/**
 * Made-up material for the augmentation tests: a small static table with seeded random rows, and a
 * collection where queries and their relevant documents share no word. Query word i stands for document
 * word i; each document holds the words of two concepts; a query names two concepts; the test queries are
 * pairs the train split never shows.
 */
import { createAnalyzer } from '../../../src/lib/analysis/analyzers.ts';
import { indexCorpus } from '../../../src/lib/bm25/bm25-corpus.ts';
import type { Bm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { StaticQueryEncoder } from '../../../src/lib/augment/encoder.ts';
import { SeededRandom } from '../../../src/lib/augment/rng.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../../../src/lib/augment/train.ts';
import { WordTokenizer } from '../../../src/lib/dense/word-tokenizer.ts';
import { STATIC_TABLE_FORMAT, type StaticTable } from '../../../src/lib/dense/static-table.ts';
import type { Bm25Settings } from '../../../src/lib/retrievers/config.ts';
import type { Doc, Qrels, Query } from '../../../src/lib/types.ts';

export const QUERY_WORDS = ['amber', 'birch', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'jasper', 'kelp', 'lagoon'];
export const DOC_WORDS = QUERY_WORDS.map((_, i) => `zx${String.fromCharCode(97 + i)}q`);

/** A static table over `words` (plus [PAD], [UNK] and a zero punctuation row) with seeded int8 rows. */
export function syntheticTable(words: readonly string[], dim: number, seed: number): StaticTable {
  const vocab = ['[PAD]', '[UNK]', '.', ...words];
  const random = new SeededRandom(seed);
  const scales = new Float32Array(vocab.length);
  const values = new Int8Array(vocab.length * dim);
  for (let row = 3; row < vocab.length; row++) {
    scales[row] = 0.01;
    for (let c = 0; c < dim; c++) values[row * dim + c] = Math.round(random.normal() * 40);
  }
  const header = { format: STATIC_TABLE_FORMAT, rows: vocab.length, dim, unkToken: '[UNK]', addedTokens: [], maxLength: 256 } as const;
  return { header: { ...header, addedTokens: [] }, tokenizer: new WordTokenizer(vocab, { unkToken: '[UNK]', addedTokens: [], maxLength: 256 }), scales, values };
}

export interface SyntheticCollection {
  docs: Doc[];
  index: Bm25Index;
  encoder: StaticQueryEncoder;
  bm25: Bm25Settings;
  train: { queries: Query[]; qrels: Qrels };
  test: { queries: Query[]; qrels: Qrels };
}

/** Every pair of concepts is a document and a query; `testPairs` of the pairs (seeded) are held out for test. */
export function syntheticCollection(options: { testPairs?: number; seed?: number; dim?: number } = {}): SyntheticCollection {
  const { testPairs = 16, seed = 7, dim = 24 } = options;
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < QUERY_WORDS.length; i++) for (let j = i + 1; j < QUERY_WORDS.length; j++) pairs.push([i, j]);
  const docs = pairs.map(([i, j]): Doc => ({ id: `d${i}-${j}`, title: '', text: `${DOC_WORDS[i]} ${DOC_WORDS[j]} common` }));
  const queries = pairs.map(([i, j]): Query => ({ id: `q${i}-${j}`, text: `${QUERY_WORDS[i]} ${QUERY_WORDS[j]}` }));
  const qrels: Qrels = new Map(pairs.map(([i, j]) => [`q${i}-${j}`, new Map([[`d${i}-${j}`, 1]])]));
  const shuffled = new SeededRandom(seed).shuffled(queries);
  const split = (list: Query[]) => ({ queries: list, qrels: new Map(list.map((q) => [q.id, qrels.get(q.id)!])) });
  const analyzer = createAnalyzer('standard');
  return {
    docs,
    index: indexCorpus(docs, analyzer),
    encoder: new StaticQueryEncoder('synthetic', syntheticTable(QUERY_WORDS, dim, seed), analyzer),
    bm25: { k1: 0.9, b: 0.4, analyzer: 'standard' },
    train: split(shuffled.slice(testPairs)),
    test: split(shuffled.slice(0, testPairs)),
  };
}

/** Small batches and a larger step than SciFact's: 50 training queries. */
export const SYNTHETIC_SETTINGS: TrainSettings = { ...DEFAULT_TRAIN_SETTINGS, epochs: 40, batchSize: 10, lr: 0.01, lambda: 0.01, seed: 11 };

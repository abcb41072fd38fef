/**
 * The analyzers a user can pick, as data: key, label, description and constructor. All are Lucene
 * 8.7 analyzers reproduced term for term, so an index built here can be compared with Lucene/Pyserini.
 */
import type { Analyzer } from './analyzer.ts';
import { englishAnalyzer } from './english-analyzer.ts';
import { polishAnalyzer } from './polish-analyzer.ts';
import { loadStempelTables } from './stempel.ts';
import { simpleAnalyzer } from './simple-analyzer.ts';
import { standardAnalyzer } from './standard-analyzer.ts';
import { WORDPIECE_ANALYZER_NAME, wordPieceAnalyzer } from './wordpiece-analyzer.ts';

export interface AnalyzerInfo {
  readonly name: string;
  /** Short human label for menus. */
  readonly label: string;
  /** One or two sentences on what it does. */
  readonly description: string;
  /** A fresh instance (each has its own term memo); after `prepare`, for an analyzer that has one. */
  readonly create: () => Analyzer;
  /** Loads the data `create` needs (fetched on demand in the app), once. */
  readonly prepare?: () => Promise<unknown>;
}

export const analyzers = {
  english: {
    name: 'english',
    label: 'English (Lucene EnglishAnalyzer)',
    description:
      "Unicode word segmentation, possessive 's removed, lower-cased, 33 English stop words dropped, Porter " +
      "stemming. Lucene 8.7's EnglishAnalyzer, as used by Pyserini's BEIR BM25 baselines.",
    create: englishAnalyzer,
  },
  polish: {
    name: 'polish',
    label: 'Polish (Lucene PolishAnalyzer)',
    description:
      'Unicode word segmentation, lower-cased, 182 Polish stop words dropped, Stempel stemming with ' +
      "Lucene's bundled table (words of 4+ characters). Lucene 8.7's PolishAnalyzer, as in BEIR-PL's BM25.",
    create: polishAnalyzer,
    prepare: loadStempelTables,
  },
  standard: {
    name: 'standard',
    label: 'Standard (Lucene StandardAnalyzer)',
    description:
      "Unicode word segmentation and lower-casing only: no stop words, no stemming. Lucene 8.7's " +
      'StandardAnalyzer with its default (empty) stop set.',
    create: standardAnalyzer,
  },
  simple: {
    name: 'simple',
    label: 'Simple (letters only)',
    description:
      "Runs of letters, lower-cased; digits and punctuation split words and are dropped. Lucene 8.7's " +
      'SimpleAnalyzer.',
    create: simpleAnalyzer,
  },
} as const satisfies Record<string, AnalyzerInfo>;

export type AnalyzerName = keyof typeof analyzers;

export const analyzerNames = Object.keys(analyzers) as AnalyzerName[];

export function isAnalyzerName(name: string): name is AnalyzerName {
  return Object.hasOwn(analyzers, name);
}

/** A new analyzer by registry name; one with data to load needs `prepareAnalyzer` first. */
export function createAnalyzer(name: AnalyzerName): Analyzer {
  return analyzers[name].create();
}

const prepared = new Set<AnalyzerName>();

/** Loads what `createAnalyzer(name)` needs (the Polish Stempel table); at once for the others. */
export async function prepareAnalyzer(name: AnalyzerName): Promise<void> {
  const info: AnalyzerInfo = analyzers[name];
  if (info.prepare !== undefined) await info.prepare();
  prepared.add(name);
}

/** Whether `createAnalyzer(name)` can run now. */
export function analyzerReady(name: AnalyzerName): boolean {
  const info: AnalyzerInfo = analyzers[name];
  return info.prepare === undefined || prepared.has(name);
}

/**
 * Analyzers that need a data file before they exist, kept apart from `analyzers` (whose `create` takes
 * nothing) so every place that builds an analyzer by name synchronously stays as it is. A caller fetches
 * `file` — a path under the app's public folder, built by `npm run models` — and passes its text to
 * `create`.
 */
export interface LoadableAnalyzerInfo {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  /** The file `create` needs, relative to the app's base URL (public/ in the repository). */
  readonly file: string;
  readonly create: (fileText: string) => Analyzer;
}

export const loadableAnalyzers = {
  wordpiece: {
    name: WORDPIECE_ANALYZER_NAME,
    label: 'WordPiece (BERT, all-MiniLM-L6-v2 vocabulary)',
    description:
      'BERT uncased tokenization: accents stripped, lower-cased, punctuation split off, words cut into the ' +
      "longest vocabulary pieces (##-prefixed continuations); no stop words, no stemming. The \"BM25 (Ours)\" " +
      'of the BM25 query augmentation paper.',
    file: 'models/local/tiny-bert/vocab.txt',
    create: (vocabText: string) => wordPieceAnalyzer(vocabText),
  },
} as const satisfies Record<string, LoadableAnalyzerInfo>;

export type LoadableAnalyzerName = keyof typeof loadableAnalyzers;

/** An analyzer a BM25 index can be built with: one of `analyzers`, or one of `loadableAnalyzers`. */
export type Bm25AnalyzerName = AnalyzerName | LoadableAnalyzerName;

export const bm25AnalyzerNames: readonly Bm25AnalyzerName[] = [...analyzerNames, ...(Object.keys(loadableAnalyzers) as LoadableAnalyzerName[])];

export function isLoadableAnalyzerName(name: string): name is LoadableAnalyzerName {
  return Object.hasOwn(loadableAnalyzers, name);
}

export function isBm25AnalyzerName(name: string): name is Bm25AnalyzerName {
  return isAnalyzerName(name) || isLoadableAnalyzerName(name);
}

/** Label and description of any BM25 analyzer (for menus and titles). */
export function bm25AnalyzerInfo(name: Bm25AnalyzerName): { label: string; description: string } {
  return isLoadableAnalyzerName(name) ? loadableAnalyzers[name] : analyzers[name];
}

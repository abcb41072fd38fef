import type { Analyzer } from '../analysis/analyzer.ts';
import type { Doc, Query } from '../types.ts';
import { Bm25IndexBuilder, type Bm25Index } from './bm25-index.ts';
import type { Bm25Query } from './bm25-query.ts';

/**
 * The text BM25 indexes for a document: Pyserini's BEIR "flat" field, `title + " " + text` (the title
 * alone is not indexed separately; an empty title still adds the space, as the reference runs do).
 */
export function indexedText(doc: Pick<Doc, 'title' | 'text'>): string {
  return `${doc.title} ${doc.text}`;
}

export interface IndexCorpusOptions {
  /** Called every `progressEvery` documents and once at the end. */
  onProgress?: (docsDone: number, docsTotal: number) => void;
  progressEvery?: number;
  signal?: AbortSignal;
}

/** Analyzes every document and builds the BM25 index, documents numbered in corpus order. */
export function indexCorpus(docs: readonly Doc[], analyzer: Analyzer, options: IndexCorpusOptions = {}): Bm25Index {
  const { onProgress, signal, progressEvery = 1000 } = options;
  const builder = new Bm25IndexBuilder();
  docs.forEach((doc, i) => {
    if (i % progressEvery === 0) {
      signal?.throwIfAborted();
      if (i > 0) onProgress?.(i, docs.length);
    }
    builder.add(doc.id, analyzer.analyze(indexedText(doc)));
  });
  onProgress?.(docs.length, docs.length);
  return builder.build();
}

/** A query as BM25 sees it: its id (for identical-id removal) and its analyzed terms. */
export function analyzeQuery(query: Query, analyzer: Analyzer): Bm25Query {
  return { id: query.id, terms: analyzer.analyze(query.text) };
}

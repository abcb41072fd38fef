/**
 * The page's worker constructors, each in the literal `new Worker(new URL(…, import.meta.url))` form vite
 * needs to bundle the script. Hosts (worker-host.ts) call them; `name` shows in the browser's tools and
 * lets tests find a worker by its script.
 */
import type { Bm25AnalyzerName } from '../../lib/analysis/analyzers.ts';

export function createBm25Worker(analyzer: Bm25AnalyzerName): Worker {
  return new Worker(new URL('../../../workers/bm25.worker.ts', import.meta.url), { type: 'module', name: `bm25-${analyzer}` });
}

/** A dense column's worker; a Re-rank column's cross-encoder runs in one of its own (`name`: 'rerank'). */
export function createDenseWorker(name: 'dense' | 'rerank' = 'dense'): Worker {
  return new Worker(new URL('../../../workers/dense.worker.ts', import.meta.url), { type: 'module', name });
}

/** Embedding only (diagnostics and benchmarks). */
export function createEmbedWorker(): Worker {
  return new Worker(new URL('../../../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' });
}

/** HNSW over given vectors (diagnostics). */
export function createSearchWorker(): Worker {
  return new Worker(new URL('../../../workers/hnsw.worker.ts', import.meta.url), { type: 'module', name: 'search' });
}

/** Document lookups for the hits on screen (documents.worker.ts). */
export function createDocumentsWorker(): Worker {
  return new Worker(new URL('../../../workers/documents.worker.ts', import.meta.url), { type: 'module', name: 'documents' });
}

export function createImportWorker(): Worker {
  return new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' });
}

/** Augmented BM25 columns' query expansion (a stored model applied to query texts). */
export function createAugmentWorker(): Worker {
  return new Worker(new URL('../../../workers/augment.worker.ts', import.meta.url), { type: 'module', name: 'augment' });
}

/** Query-augmentation training (the Learn view). */
export function createLearnWorker(): Worker {
  return new Worker(new URL('../../../workers/learn.worker.ts', import.meta.url), { type: 'module', name: 'learn' });
}

/**
 * Which of the page's workers a column ranks in, so an evaluation ranks side by side columns that do not
 * take turns in one worker (side-by-side.ts): BM25's worker of its analyzer, a dense model's worker (by
 * model, device and dtype, as dense-workers.ts keys them), a cross-encoder's.
 */
import { preparedSettings, type RetrieverConfig } from '../../lib/retrievers/config.ts';
import { settingsKey } from '../../lib/settings-key.ts';

export function workersOf(retriever: RetrieverConfig): string[] {
  const { bm25, dense, rerank } = preparedSettings(retriever);
  const workers: string[] = [];
  if (bm25 !== undefined) workers.push(`bm25|${bm25.analyzer}`);
  if (dense !== undefined) workers.push(`dense|${dense.model}|${dense.device}|${dense.dtype}`);
  if (rerank !== undefined) workers.push(`rerank|${settingsKey(rerank)}`);
  return workers;
}

/** Two columns that rank in the same worker only take turns in it when ranked side by side. */
export function sharesWorker(a: RetrieverConfig, b: RetrieverConfig): boolean {
  const theirs = new Set(workersOf(b));
  return workersOf(a).some((worker) => theirs.has(worker));
}

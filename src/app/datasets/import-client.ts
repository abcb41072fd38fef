import * as Comlink from 'comlink';
import type { ImportWorkerApi } from '../../../workers/import.worker.ts';

/** The import worker (one per page, started on first use). */
let worker: Comlink.Remote<ImportWorkerApi> | undefined;

export function importWorker(): Comlink.Remote<ImportWorkerApi> {
  worker ??= Comlink.wrap<ImportWorkerApi>(new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' }));
  return worker;
}

/**
 * The import worker (workers/import.worker.ts): one per page, started on first use and hosted like every
 * worker (src/app/workers/worker-host.ts). A crash — the worker throws at top level or later, a
 * WebAssembly abort, no answer to pings — rejects the import in flight with a message naming the worker
 * (the page reports it as the import's failure) instead of leaving it pending, and the next import starts
 * a fresh worker. What a crashed import had written is rolled back like a closed tab's (`recover`).
 */
import type { ImportWorkerApi } from '../../../workers/import.worker.ts';
import { WorkerHost, type HostedWorker } from '../workers/worker-host.ts';
import { createImportWorker } from '../workers/worker-scripts.ts';
import type { WorkerCrashedError } from '../workers/worker-watch.ts';

/** The page's import worker (`create` and `onCrash` for tests and for the page's recovery after a crash). */
export function importWorkerHost(create: () => HostedWorker = createImportWorker, onCrash?: (error: WorkerCrashedError) => void): WorkerHost<ImportWorkerApi> {
  return new WorkerHost<ImportWorkerApi>({
    label: 'The import worker',
    create,
    ping: (api) => api.ping(),
    ...(onCrash === undefined ? {} : { onCrash }),
  });
}

/**
 * The import worker's host: before, a crashed import worker left its import pending forever. Now the
 * import in flight rejects with a message naming the worker (the Datasets view reports it as the import's
 * failure), the page hears of it (to roll back what was written before the next import), and the next
 * import starts a fresh worker. The same in chromium, with the real worker: tests/browser/failures.test.ts.
 */
import * as Comlink from 'comlink';
import { expect, test } from 'vitest';
import type { ImportWorkerApi } from '../../../workers/import.worker.ts';
import { importWorkerHost } from '../../../src/app/collection/import-client.ts';
import type { ImportOutcome, ImportProgress } from '../../../src/lib/import/importer.ts';
import type { WorkerCrashedError } from '../../../src/app/workers/worker-watch.ts';
import { FakeWorkers } from '../workers/fake-worker.ts';

type HubRequest = Parameters<ImportWorkerApi['importHub']>[0];

/** The slice of the import worker used here: an import that runs until the test ends it, and recovery. */
function fakeImportApi(finishers: Array<(outcome: ImportOutcome) => void>) {
  return {
    ping: () => true,
    importHub: (request: HubRequest, onProgress?: (progress: ImportProgress) => void): Promise<ImportOutcome> => {
      onProgress?.({ phase: 'documents', file: `${request.entryId}/corpus.jsonl`, bytes: 1024, documents: 10, queries: 0, judgments: 0, elapsedMs: 5 });
      return new Promise<ImportOutcome>((resolve) => finishers.push(resolve));
    },
    recover: () => ['beir/scifact'],
  };
}

const REQUEST: Omit<HubRequest, 'importId'> = { entryId: 'beir/scifact', hubUrl: 'http://hub.invalid/', onError: 'throw' };

test('a crashed import worker rejects the import with a message naming it; the next import runs in a fresh worker', async () => {
  const finishers: Array<(outcome: ImportOutcome) => void> = [];
  const workers = new FakeWorkers(() => fakeImportApi(finishers));
  const crashes: WorkerCrashedError[] = [];
  // The fake offers the slice of the API this test calls (the host is typed with the whole worker's).
  const host = importWorkerHost(workers.create, (error) => crashes.push(error));
  const progress: number[] = [];
  const onProgress = Comlink.proxy((p: ImportProgress) => void progress.push(p.bytes));
  const first = host.call((api) => api.importHub({ importId: 'a', ...REQUEST }, onProgress));
  await expect.poll(() => finishers.length).toBe(1);
  workers.last.crash('Uncaught RangeError: Array buffer allocation failed');
  await expect(first).rejects.toThrow('The import worker stopped: Uncaught RangeError: Array buffer allocation failed. It is restarted on next use.');
  expect(crashes).toHaveLength(1);
  expect(workers.made[0]!.terminated).toBe(true);

  // The next import: a fresh worker, which rolls back first and then imports.
  expect(await host.call((api) => api.recover())).toEqual(['beir/scifact']);
  const second = host.call((api) => api.importHub({ importId: 'b', ...REQUEST }, onProgress));
  await expect.poll(() => finishers.length).toBe(2);
  finishers[1]!({ status: 'cancelled' });
  await expect(second).resolves.toEqual({ status: 'cancelled' });
  expect(progress).toEqual([1024, 1024]);
  expect(workers.made).toHaveLength(2);
  expect(crashes).toHaveLength(1);
});

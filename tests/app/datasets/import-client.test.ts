/**
 * The import worker's host: before, a crashed import worker left its import pending forever. Now the
 * import in flight rejects with a message naming the worker (the Datasets view reports it as the import's
 * failure), the page hears of it (to roll back what was written before the next import), and the next
 * import starts a fresh worker. The same in chromium, with the real worker: tests/browser/failures.test.ts.
 */
import * as Comlink from 'comlink';
import { expect, test } from 'vitest';
import { importWorkerHost } from '../../../src/app/datasets/import-client.ts';
import type { WorkerCrashedError } from '../../../src/app/workers/worker-watch.ts';
import { FakeWorkers } from '../workers/fake-worker.ts';

/** The slice of the import worker's API used here: an import that runs until told, and recovery. */
function fakeImportApi() {
  let finish: ((outcome: { status: 'done'; docs: number }) => void) | undefined;
  return {
    ping: () => true,
    importHub: (_request: { importId: string; entryId: string }, onProgress?: (progress: { bytes: number }) => void) => {
      onProgress?.({ bytes: 1024 });
      return new Promise<{ status: 'done'; docs: number }>((resolve) => (finish = resolve));
    },
    finishImport: (docs: number) => finish?.({ status: 'done', docs }),
    recover: () => ['beir/scifact'],
  };
}

test('a crashed import worker rejects the import with a message naming it; the next import runs in a fresh worker', async () => {
  const workers = new FakeWorkers(fakeImportApi);
  const crashes: WorkerCrashedError[] = [];
  const host = importWorkerHost(workers.create, (error) => crashes.push(error));
  const progress: number[] = [];
  const onProgress = Comlink.proxy((p: { bytes: number }) => progress.push(p.bytes));
  const first = host.call((api) => api.importHub({ importId: 'a', entryId: 'beir/scifact' }, onProgress));
  await expect.poll(() => progress.length).toBe(1);
  workers.last.crash('Uncaught RangeError: Array buffer allocation failed');
  await expect(first).rejects.toThrow('The import worker stopped: Uncaught RangeError: Array buffer allocation failed. It is restarted on next use.');
  expect(crashes).toHaveLength(1);
  expect(workers.made[0]!.terminated).toBe(true);

  // The next import: a fresh worker, which rolls back first and then imports.
  expect(await host.call((api) => api.recover())).toEqual(['beir/scifact']);
  const second = host.call((api) => api.importHub({ importId: 'b', entryId: 'beir/scifact' }, onProgress));
  await expect.poll(() => progress.length).toBe(2);
  await host.call((api) => api.finishImport(5183));
  await expect(second).resolves.toEqual({ status: 'done', docs: 5183 });
  expect(workers.made).toHaveLength(2);
  expect(crashes).toHaveLength(1);
});

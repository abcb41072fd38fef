/**
 * Two tabs opening the same BM25 index (Bm25Service, the BM25 worker's logic, on the starter collection in
 * fake-indexeddb): the build holds the index's Web Lock, so the second tab waits and loads the stored index
 * instead of building it again; its searches equal the first tab's.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { BM25_INDEX_KIND, Bm25Service, type IndexProgress } from '../../../src/lib/services/bm25-service.ts';
import { runImport } from '../../../src/lib/import/importer.ts';
import { starterImportPlan } from '../../../src/lib/import/starter-plan.ts';
import { STARTER_COLLECTION } from '../../../src/lib/starter/index.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { indexRowKey } from '../../../src/lib/storage/index-store.ts';
import { lockNames } from '../../../src/lib/storage/work-locks.ts';
import { Gate } from '../../app/engine/fakes.ts';
import { repoRoot } from '../../shared-dir.ts';
import { kernelModule } from '../bm25-wasm/fixtures.ts';
import { MemoryLocks } from './memory-locks.ts';

const starterDir = join(repoRoot, 'src', 'lib', 'starter');
const texts = {
  corpus: readFileSync(join(starterDir, STARTER_COLLECTION.files.corpus), 'utf8'),
  queries: readFileSync(join(starterDir, STARTER_COLLECTION.files.queries), 'utf8'),
  qrels: readFileSync(join(starterDir, STARTER_COLLECTION.files.qrels), 'utf8'),
};

let db: PlaygroundDatabase | undefined;
afterEach(async () => {
  await db?.delete();
});

test('the second tab waits for the first one’s build and loads the stored index; one build in all', async () => {
  db = new PlaygroundDatabase('index-locks-test');
  const outcome = await runImport(db, starterImportPlan(texts), { locks: null });
  expect(outcome.status).toBe('done');
  const locks = new MemoryLocks();
  const tabA = new Bm25Service({ db, loadKernel: kernelModule, batchSize: 10, locks });
  const tabB = new Bm25Service({ db, loadKernel: kernelModule, batchSize: 10, locks });
  const save = vi.spyOn(db.indexes, 'put');
  const progressA: IndexProgress[] = [];
  const progressB: IndexProgress[] = [];
  const [a, b] = await Promise.all([
    tabA.openIndex({ collectionId: 'starter' }, (p) => progressA.push(p)),
    // Starts once A is indexing, as a second tab opened a moment later would.
    new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => tabB.openIndex({ collectionId: 'starter' }, (p) => progressB.push(p))),
  ]);
  expect(a.source).toBe('built');
  expect(b.source).toBe('stored');
  expect(save).toHaveBeenCalledTimes(1);
  expect(progressA.some((p) => p.phase === 'indexing')).toBe(true);
  expect(progressB.some((p) => p.phase === 'indexing')).toBe(false);
  expect(locks.waited).toEqual([expect.stringContaining('retrieval-playground/index/starter|bm25|')]);
  const query = { id: 'q01', text: 'why does bread go stale' };
  expect(tabB.search('starter', query)).toEqual(tabA.search('starter', query));
});

test('cancel stops a tab that waits for another tab’s build, and it builds nothing', async () => {
  db = new PlaygroundDatabase('index-locks-cancel-test');
  await runImport(db, starterImportPlan(texts), { locks: null });
  const locks = new MemoryLocks();
  const tab = new Bm25Service({ db, loadKernel: kernelModule, locks });
  const settings = await tab.settingsFor('starter');
  const key = indexRowKey({ collectionId: 'starter', kind: BM25_INDEX_KIND, settings: settings as unknown as Record<string, unknown> });
  const otherTab = new Gate();
  const holding = locks.request(lockNames.index(key), {}, () => otherTab.wait());
  const opening = tab.openIndex({ collectionId: 'starter' });
  await vi.waitFor(() => expect(locks.waited).toHaveLength(1));
  tab.cancel();
  await expect(opening).rejects.toMatchObject({ name: 'AbortError' });
  otherTab.open();
  await holding;
  expect(await db.indexes.count()).toBe(0);
});

import * as Comlink from 'comlink';
import { collectionLanguage, LANGUAGES, type Language } from '../../lib/analysis/language.ts';
import type { CatalogEntry } from '../../lib/catalog/catalog.ts';
import type { ErrorPolicy } from '../../lib/data/record-stream.ts';
import type { Inspection } from '../../lib/import/classify.ts';
import type { FieldMapping } from '../../lib/import/field-mapping.ts';
import { canRetrySkipping, type ImportFailure } from '../../lib/import/import-failure.ts';
import type { ImportOutcome, ImportProgress } from '../../lib/import/importer.ts';
import type { LocalInput } from '../../lib/import/local.ts';
import { STARTER_ID } from '../../lib/starter/index.ts';
import {
  collectionUsage,
  deleteCollection,
  hasUnfinishedImports,
  listCollections,
  setCollectionLanguage,
  type CollectionUsage,
} from '../../lib/storage/collections.ts';
import { database, dropLegacyDatabases, onDatabaseOutdated, type CollectionRow } from '../../lib/storage/db.ts';
import type { StorageEstimateLike } from '../../lib/storage/quota.ts';
import { app } from '../app-state.svelte.ts';
import { formatCount, formatMs } from '../shell/format.ts';
import { jobs } from '../shell/jobs.svelte.ts';
import { notices } from '../shell/notices.svelte.ts';
import { hubSetting } from './hub-setting.svelte.ts';
import { importWorkerHost } from './import-client.ts';
import type { StoredImportedVectors, VectorImportProgress } from '../../lib/import/vector-import.ts';

/**
 * The collections stored in this browser, as the page sees them: the list, which one is open, imports
 * (through the import worker, the starter's in the page; a job in the tray each), deletion, storage use,
 * and the result of the last import. Start-up (`init`): roll back imports a closed tab left unfinished,
 * import the starter collection when nothing is stored, and open the last collection used (or the first).
 *
 * For the Explore and Evaluate views: `collections.current` is the open collection's row (counts, splits). The
 * storage functions (src/lib/storage/collections.ts) can also be called directly with `database()`.
 */

const LAST_OPENED_KEY = 'retrieval-playground.collection';
const PERSIST_ASKED_KEY = 'retrieval-playground.persistRequested';

/** The outcome of the last import, for the report panel. */
export interface LastImport {
  title: string;
  source: 'starter' | 'hub' | 'local';
  /** How bad lines were treated: stop at the first, or skip and list them. */
  onError: ErrorPolicy;
  outcome: ImportOutcome;
  finishedAt: number;
  /** The same import again with bad lines skipped, when it failed on one line and can be retried so. */
  retrySkipping?: () => Promise<ImportOutcome>;
}

/** Shown when another tab upgrades (or deletes) the database under this one. */
export const OUTDATED_MESSAGE =
  'The playground was updated in another tab (its stored data moved to a newer format), so this tab has let go of ' +
  'the database and can no longer read or save anything. Reload this tab to go on.';

/** What a starter import needs: its texts (60 kB) and the importer, loaded for a first-visit import only. */
interface StarterKit {
  texts: typeof import('./starter-source.ts')['starterTexts'];
  runImport: typeof import('../../lib/import/importer.ts')['runImport'];
  starterImportPlan: typeof import('../../lib/import/starter-plan.ts')['starterImportPlan'];
}

async function starterKit(): Promise<StarterKit> {
  const [source, importer, plan] = await Promise.all([import('./starter-source.ts'), import('../../lib/import/importer.ts'), import('../../lib/import/starter-plan.ts')]);
  return { texts: source.starterTexts, runImport: importer.runImport, starterImportPlan: plan.starterImportPlan };
}

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage disabled: nothing to remember across visits.
  }
}

function newImportId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

function progressDetail(progress: ImportProgress): string {
  const docs = `${formatCount(progress.documents)} docs`;
  switch (progress.phase) {
    case 'documents':
      return progress.docsPerSecond === undefined ? `${docs} stored` : `${docs} stored · ${formatCount(Math.round(progress.docsPerSecond))} docs/s`;
    case 'queries':
      return `${docs} · ${formatCount(progress.queries)} queries stored`;
    case 'qrels':
      return `${docs} · ${formatCount(progress.queries)} queries · reading judgments`;
    case 'finishing':
      return `${docs} · ${formatCount(progress.queries)} queries · validating`;
  }
}

/**
 * When a visit with stored collections rolls back unfinished imports, and when any visit drops the legacy
 * databases: after its first screen.
 */
const RECOVER_AFTER_MS = 3000;

/** A performance mark set once the visit's check for unfinished imports is done: tests wait on it, profiles show it. */
const IMPORTS_CHECKED_MARK = 'rp:unfinished-imports-checked';

class Collections {
  /** Ready collections, oldest first. */
  list = $state.raw<CollectionRow[]>([]);
  /** True once start-up is over (the starter imported if needed, a collection opened). */
  ready = $state(false);
  /** Keys of imports running now: a catalog id, 'local' or 'starter'. */
  running = $state.raw<ReadonlySet<string>>(new Set());
  lastImport = $state.raw<LastImport | null>(null);
  usage = $state.raw<ReadonlyMap<string, CollectionUsage>>(new Map());
  estimate = $state.raw<StorageEstimateLike | null>(null);
  /** Whether the browser keeps this site's storage under pressure (null: unknown or unsupported). */
  persisted = $state<boolean | null>(null);
  /** Another tab upgraded the database: this tab closed its connection and must be reloaded. */
  outdated = $state(false);
  #started = false;
  #recovery: Promise<void> | undefined;
  /**
   * The import worker. One that crashed rejects the import in flight (its failure in the report) and the
   * next import starts a fresh one, which first rolls back what the crashed import had written.
   */
  #importer = importWorkerHost(undefined, () => {
    this.#recovery = undefined;
  });

  /** The open collection's row. */
  get current(): CollectionRow | undefined {
    return this.list.find((collection) => collection.id === app.collectionId);
  }

  async init(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    onDatabaseOutdated(() => {
      this.outdated = true;
      notices.error(OUTDATED_MESSAGE);
    });
    // Earlier versions' databases go once the first screen is up: nothing on it needs them gone.
    setTimeout(() => void dropLegacyDatabases(), RECOVER_AFTER_MS);
    try {
      // Imports a closed tab left unfinished are rolled back in the import worker. The list holds ready
      // collections only, which a rollback never touches, so it is read first and a stored collection opens
      // without that worker; the worker (and the rollback) then start once the first screen has had its
      // turn. Only a starter import (first visit) waits for the rollback. When this browser never opened a
      // collection (a first visit, or cleared storage), the starter import is likely: the rollback's check
      // and the starter's texts and importer load while the list is read.
      const likelyFirstVisit = readStorage(LAST_OPENED_KEY) === null;
      const kit = likelyFirstVisit ? starterKit() : undefined;
      kit?.catch(() => undefined); // awaited below when the list is empty; a failure shows there
      if (likelyFirstVisit) void this.recovered().catch(() => undefined);
      await this.refresh();
      if (this.list.length === 0) {
        await this.recovered();
        await this.importStarter(kit ?? starterKit());
      } else {
        setTimeout(() => void this.recovered().catch((error: unknown) => notices.error(error)), RECOVER_AFTER_MS);
      }
      const wanted = app.collectionId ?? readStorage(LAST_OPENED_KEY);
      const first = this.list.find((c) => c.id === STARTER_ID) ?? this.list[0];
      const target = this.list.find((c) => c.id === wanted) ?? first;
      if (target !== undefined) this.open(target.id);
    } catch (error) {
      notices.error(error);
    } finally {
      this.ready = true;
    }
    void this.requestPersistence();
  }

  /** Rolls back imports a closed tab left unfinished, once per page (every import waits for it). */
  private recovered(): Promise<void> {
    this.#recovery ??= this.#rollBack().finally(() => performance.mark(IMPORTS_CHECKED_MARK));
    return this.#recovery;
  }

  /**
   * The rollback runs in the import worker, which is started for it only when a collection is left
   * importing: a visit without one (nearly every visit) starts no worker, whose start, database and empty
   * check would cost every page load CPU.
   */
  async #rollBack(): Promise<void> {
    if (!(await hasUnfinishedImports(database()))) return;
    const names = new Map((await database().collections.where('status').equals('importing').toArray()).map((row) => [row.id, row.name]));
    const removed = await this.#importer.call((api) => api.recover());
    if (removed.length === 0) return;
    const which = removed.map((id) => `"${names.get(id) ?? id}"`).join(', ');
    notices.info(`Removed the unfinished import${removed.length === 1 ? '' : 's'} of ${which}, left by a tab closed or reloaded during it: nothing of it was kept, and the other collections are untouched. Import it again to use it.`);
  }

  async refresh(): Promise<void> {
    this.list = await listCollections(database());
  }

  /** Opens a collection: the views follow `app.collectionId`; the split becomes test when it has one. */
  open(collectionId: string): void {
    const collection = this.list.find((c) => c.id === collectionId);
    if (collection === undefined) return;
    app.collectionId = collectionId;
    this.followLanguage(collection.language);
    if (!collection.splits.includes(app.split)) app.split = collection.splits.includes('test') ? 'test' : (collection.splits[0] ?? app.split);
    writeStorage(LAST_OPENED_KEY, collectionId);
  }

  /** Told the open collection's language (see `onLanguage`). */
  #languageListeners = new Set<(language: Language) => void>();

  /**
   * Calls `listener` with the open collection's language when a collection opens and when the open one's
   * language changes (the default columns follow it: columns.svelte.ts). Returns what unsubscribes it.
   */
  onLanguage(listener: (language: Language) => void): () => void {
    this.#languageListeners.add(listener);
    return () => this.#languageListeners.delete(listener);
  }

  private followLanguage(stored: Language | undefined): void {
    const language = collectionLanguage({ language: stored });
    for (const listener of this.#languageListeners) listener(language);
  }

  /** Changes a collection's language (the Datasets view): new BM25 columns then use its analyzer. */
  async setLanguage(collectionId: string, language: Language): Promise<void> {
    try {
      await setCollectionLanguage(database(), collectionId, language);
      await this.refresh();
      if (collectionId === app.collectionId) this.followLanguage(language);
      notices.info(`${this.list.find((c) => c.id === collectionId)?.name ?? collectionId} is now marked ${LANGUAGES[language].label}: new BM25 columns use the ${LANGUAGES[language].analyzer} analyzer.`);
    } catch (error) {
      notices.error(error);
    }
  }

  /** Deletes a collection and all derived data; opens another one if it was open. */
  async remove(collectionId: string): Promise<void> {
    const name = this.list.find((c) => c.id === collectionId)?.name ?? collectionId;
    try {
      await deleteCollection(database(), collectionId);
      await this.refresh();
      if (app.collectionId === collectionId) {
        app.collectionId = null;
        const next = this.list[0];
        if (next !== undefined) this.open(next.id);
      }
      notices.info(`Deleted "${name}".`);
    } catch (error) {
      notices.error(error);
    }
    await this.storageChanged();
  }

  isRunning(key: string): boolean {
    return this.running.has(key);
  }

  private setRunning(key: string, on: boolean): void {
    const next = new Set(this.running);
    if (on) next.add(key);
    else next.delete(key);
    this.running = next;
  }

  /**
   * Imports vector files into a stored collection in the import worker (vector-import.ts: checked, then
   * stored all or nothing), with a job in the tray (rows read, Cancel); a failure is a notice naming the
   * file and line. Resolves with what was stored, or undefined.
   */
  async importVectors(collectionId: string, files: { corpus: File; corpusIds?: File | undefined; queries: File; queryIds?: File | undefined }): Promise<StoredImportedVectors | undefined> {
    const importId = newImportId();
    const job = jobs.start(`Import vectors ${files.corpus.name}`, { unit: 'kB' });
    const totalKb = Math.max(1, Math.round((files.corpus.size + files.queries.size) / 1024));
    const cancel = () => void this.#importer.callIfRunning((api) => api.cancel(importId))?.catch(() => undefined);
    job.signal.addEventListener('abort', cancel);
    const onProgress = Comlink.proxy((progress: VectorImportProgress) => {
      job.progress(Math.round(progress.share * totalKb), totalKb, `${progress.file}: ${formatCount(progress.rows)} vectors read`);
    });
    try {
      const outcome = await this.#importer.call((api) => api.importVectors({ importId, collectionId, files }, onProgress));
      if (outcome.status === 'done') {
        const { stored } = outcome;
        job.finish(`${formatCount(stored.docs)} documents, ${formatCount(stored.queries)} queries, ${stored.dim} dimensions`);
        void this.storageChanged();
        return stored;
      }
      if (outcome.status === 'cancelled') job.fail(new DOMException('cancelled', 'AbortError'));
      else {
        job.fail(new Error(outcome.error.message));
        notices.error(outcome.error.message);
      }
    } catch (error) {
      job.fail(error);
      notices.error(error);
    } finally {
      job.signal.removeEventListener('abort', cancel);
    }
    return undefined;
  }

  /**
   * Runs one import with a job in the tray (in the import worker; the starter's in the page, its job's
   * signal cancelling it); records the outcome for the report panel.
   */
  private async runImport(
    key: string,
    title: string,
    start: (importId: string, onProgress: (progress: ImportProgress) => void, signal: AbortSignal) => Promise<ImportOutcome>,
    about: Pick<LastImport, 'source' | 'onError'> & { retrySkipping?: () => Promise<ImportOutcome> },
  ): Promise<ImportOutcome> {
    // An unfinished import of the same collection must be gone before this one writes.
    await this.recovered().catch(() => undefined);
    const importId = newImportId();
    const job = jobs.start(title, { unit: 'kB' });
    const cancel = () => void this.#importer.callIfRunning((api) => api.cancel(importId))?.catch(() => undefined);
    job.signal.addEventListener('abort', cancel);
    this.setRunning(key, true);
    let outcome: ImportOutcome;
    try {
      outcome = await start(
        importId,
        Comlink.proxy((progress: ImportProgress) => {
          const total = progress.totalBytes === undefined ? undefined : Math.max(1, Math.round(progress.totalBytes / 1024));
          job.progress(Math.round(progress.bytes / 1024), total, progressDetail(progress));
        }),
        job.signal,
      );
    } catch (error) {
      outcome = { status: 'failed', error: { name: 'Error', message: error instanceof Error ? error.message : String(error) } };
    } finally {
      job.signal.removeEventListener('abort', cancel);
      this.setRunning(key, false);
    }
    if (outcome.status === 'done') {
      const { docCount, queryCount } = outcome.collection;
      job.finish(`${formatCount(docCount)} docs, ${formatCount(queryCount)} queries in ${formatMs(outcome.elapsedMs)}`);
      await this.refresh();
    } else if (outcome.status === 'cancelled') {
      job.fail(new DOMException('cancelled', 'AbortError'));
    } else {
      job.fail(new Error(outcome.error.message));
      notices.error(outcome.error.message);
    }
    const retry = about.retrySkipping !== undefined && outcome.status === 'failed' && about.onError === 'throw' && canRetrySkipping(outcome.error);
    this.lastImport = { title, source: about.source, onError: about.onError, outcome, finishedAt: Date.now(), ...(retry ? { retrySkipping: about.retrySkipping } : {}) };
    void this.storageChanged();
    return outcome;
  }

  /**
   * The starter (60 kB) is imported in the page, not in the import worker: on a first visit that worker's
   * start (its thread, 350 kB of script, its own database connection) competed for the two cores with
   * everything else the first screen waits for.
   */
  private importStarter(kit: Promise<StarterKit>): Promise<ImportOutcome> {
    const run = async (_importId: string, onProgress: (progress: ImportProgress) => void, signal: AbortSignal) => {
      const { texts, runImport, starterImportPlan } = await kit;
      return runImport(database(), starterImportPlan(texts), { signal, onProgress });
    };
    return this.runImport('starter', 'Preparing the starter collection', run, {
      source: 'starter',
      onError: 'throw',
    });
  }

  /**
   * Downloads a catalog entry from the hub setting's address, then opens it. When it stops at a bad line,
   * the report offers the same download again, skipping bad lines.
   */
  async importFromHub(entry: CatalogEntry, onError: ErrorPolicy = 'throw'): Promise<ImportOutcome> {
    const title = onError === 'skip' ? `Download ${entry.name} (skipping bad lines)` : `Download ${entry.name}`;
    const outcome = await this.runImport(
      entry.id,
      title,
      (importId, onProgress) => this.#importer.call((api) => api.importHub({ importId, entryId: entry.id, hubUrl: hubSetting.url, onError }, onProgress)),
      { source: 'hub', onError, retrySkipping: () => this.importFromHub(entry, 'skip') },
    );
    if (outcome.status === 'done') this.open(outcome.collection.id);
    return outcome;
  }

  /** What the files are, before importing (zips opened, each file classified). */
  async inspectLocal(inputs: LocalInput[]): Promise<{ inspection: Inspection } | { error: ImportFailure }> {
    return this.#importer.call((api) => api.inspectLocal(inputs));
  }

  /**
   * Imports local files as a new collection, then opens it; `fields` is the corpus's field mapping as the
   * person confirmed it in the preview (default: the guess). When it stops at a bad line, the report offers
   * to import them again skipping bad lines (`retrySkippingBadLines`).
   */
  async importLocal(inputs: LocalInput[], name: string, onError: ErrorPolicy, fields?: FieldMapping): Promise<ImportOutcome> {
    const title = onError === 'skip' ? `Import ${name} (skipping bad lines)` : `Import ${name}`;
    const request = { name, onError, inputs, ...(fields === undefined ? {} : { fields: { ...fields } }) };
    const outcome = await this.runImport('local', title, (importId, onProgress) => this.#importer.call((api) => api.importLocal({ importId, ...request }, onProgress)), {
      source: 'local',
      onError,
      retrySkipping: () => this.importLocal(inputs, name, 'skip', fields),
    });
    if (outcome.status === 'done') this.open(outcome.collection.id);
    return outcome;
  }

  /** Runs the last import again with bad lines skipped (see `LastImport.retrySkipping`). */
  async retrySkippingBadLines(): Promise<ImportOutcome | undefined> {
    const retry = this.lastImport?.retrySkipping;
    if (retry === undefined || this.isRunning('local')) return undefined;
    return retry();
  }

  /** Storage panels on screen (the usage is counted only for them: `showStorage`). */
  #storageShown = 0;

  /**
   * A storage panel is on screen: the usage is counted now, and again after each import or delete while it
   * stays. Counting reads every index, embedding-set and run row of every collection (megabytes decoded on the
   * page's thread), so a page that does not show the panel does not count: at each page load it slowed the
   * first ranking. Returns what to call when the panel goes.
   */
  showStorage(): () => void {
    this.#storageShown += 1;
    void this.refreshStorage();
    return () => {
      this.#storageShown -= 1;
    };
  }

  /** Counts the usage again if a storage panel shows it. */
  private storageChanged(): Promise<void> {
    return this.#storageShown > 0 ? this.refreshStorage() : Promise.resolve();
  }

  /** Usage per collection and the browser's totals. */
  async refreshStorage(): Promise<void> {
    try {
      const db = database();
      const usage = new Map<string, CollectionUsage>();
      for (const collection of this.list) usage.set(collection.id, await collectionUsage(db, collection.id));
      this.usage = usage;
      this.estimate = (await navigator.storage?.estimate?.()) ?? null;
      if (this.persisted === null && navigator.storage?.persisted) this.persisted = await navigator.storage.persisted();
    } catch (error) {
      notices.error(error);
    }
  }

  /** Asks once (per browser profile) that this site's storage not be evicted under pressure. */
  async requestPersistence(): Promise<void> {
    const storage = navigator.storage;
    if (storage?.persisted === undefined) return;
    try {
      if (await storage.persisted()) {
        this.persisted = true;
        return;
      }
      if (readStorage(PERSIST_ASKED_KEY) === null && storage.persist !== undefined) {
        writeStorage(PERSIST_ASKED_KEY, String(Date.now()));
        this.persisted = await storage.persist();
      } else {
        this.persisted = false;
      }
    } catch {
      this.persisted = null;
    }
  }

  /** Asks again, from the storage panel's button. */
  async askPersistence(): Promise<void> {
    try {
      this.persisted = (await navigator.storage?.persist?.()) ?? null;
      if (this.persisted === false) notices.info('The browser declined to make storage persistent (it decides from how the site is used, e.g. bookmarked or installed).');
    } catch (error) {
      notices.error(error);
    }
  }
}

export const collections = new Collections();


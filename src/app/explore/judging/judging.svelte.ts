/**
 * Judging mode: which query is being judged and how (the columns' depth-k pool, or exactly the documents
 * a person picked), the layout (one document at a time, or the list), the judgment set judgments go to,
 * and the writes themselves. Judgments are written one after the other (a fast typist's keys land in
 * order), each to IndexedDB first (storage/judgments.ts), then to the page's judgments of the split
 * (openCollection), so every metric in Explore and Evaluate follows at once.
 *
 * The address holds the mode (`judge=one|list`, `jdepth`, `jdocs`), so a reload comes back to it; the
 * judgments and their undo history are in IndexedDB.
 */
import { DEFAULT_POOL_DEPTH } from '../../../lib/judging/pool.ts';
import type { CollectionRow, JudgmentEditRow } from '../../../lib/storage/db.ts';
import { database } from '../../../lib/storage/db.ts';
import { DEFAULT_JUDGMENT_SET, lastUndoable, setJudgment, undoLastJudgment, type JudgmentChange } from '../../../lib/storage/judgments.ts';
import { app } from '../../app-state.svelte.ts';
import { collections } from '../../collection/collections.svelte.ts';
import { openCollection } from '../../collection/open-collection.svelte.ts';
import { notices } from '../../shell/notices.svelte.ts';
import { registerUrlSlice } from '../../url-slices.svelte.ts';

export type JudgingLayout = 'one' | 'list';

export interface JudgingSession {
  queryId: string;
  /** Exactly these documents (the unjudged ones of a column's top 10); absent: the pool of every column. */
  docIds?: readonly string[];
}

export const MAX_POOL_DEPTH = 100;

const LAYOUT_KEY = 'retrieval-playground.judgingLayout';

/** The layout last chosen in this browser (a preference, not part of what a link shows). */
function storedLayout(): JudgingLayout {
  try {
    return localStorage.getItem(LAYOUT_KEY) === 'list' ? 'list' : 'one';
  } catch {
    return 'one';
  }
}

function storeLayout(layout: JudgingLayout): void {
  try {
    localStorage.setItem(LAYOUT_KEY, layout);
  } catch {
    // Storage disabled: the default layout next time.
  }
}

class Judging {
  session = $state.raw<JudgingSession | null>(null);
  #layout = $state<JudgingLayout>(storedLayout());
  /** k of the depth-k pool. */
  depth = $state(DEFAULT_POOL_DEPTH);
  /** The document shown (one at a time) or selected (list): its index in the pool. */
  position = $state(0);
  /** A judgment set chosen in the panel that does not exist yet (it is created by its first judgment). */
  newSplit = $state<string | null>(null);
  /** The latest edit undo would revert, for the session's query (shown on the Undo button). */
  undoable = $state.raw<JudgmentEditRow | undefined>(undefined);
  /** Writes waiting or running. */
  pending = $state(0);
  #queue: Promise<unknown> = Promise.resolve();

  get layout(): JudgingLayout {
    return this.#layout;
  }

  set layout(layout: JudgingLayout) {
    this.#layout = layout;
    storeLayout(layout);
  }

  get open(): boolean {
    return this.session !== null;
  }

  start(queryId: string, docIds?: readonly string[]): void {
    this.session = docIds === undefined ? { queryId } : { queryId, docIds: [...docIds] };
    this.position = 0;
  }

  /** The session follows the query Explore shows (Next / Previous while judging): the pool of that one. */
  follow(queryId: string): void {
    if (this.session === null || this.session.queryId === queryId) return;
    this.session = { queryId };
    this.position = 0;
  }

  close(): void {
    this.session = null;
  }

  /** The judgment set judgments go to: a new one being started, else the open split, else `my-judgments`. */
  splitOf(collection: CollectionRow): string {
    if (this.newSplit !== null) return this.newSplit;
    return collection.splits.includes(app.split) ? app.split : DEFAULT_JUDGMENT_SET;
  }

  /** Judgments go to an existing split (which becomes the one shown), or to a new set from the next judgment. */
  chooseSplit(collection: CollectionRow, split: string): void {
    if (collection.splits.includes(split)) {
      this.newSplit = null;
      app.split = split;
    } else {
      this.newSplit = split;
    }
  }

  /** Runs writes one after the other, counting them for the "saving" mark. */
  #enqueue<T>(write: () => Promise<T>): Promise<T | undefined> {
    this.pending += 1;
    const next = this.#queue.then(write).catch((error: unknown) => {
      notices.error(error);
      return undefined;
    });
    this.#queue = next.finally(() => {
      this.pending -= 1;
    });
    return next;
  }

  /** Sets (grade) or removes (null) a judgment of the open collection. */
  judge(collection: CollectionRow, queryId: string, docId: string, grade: number | null): Promise<JudgmentChange | undefined> {
    const split = this.splitOf(collection);
    return this.#enqueue(async () => {
      const change = await setJudgment(database(), collection.id, split, queryId, docId, grade);
      await this.#applied(collection, split, queryId, change);
      return change;
    });
  }

  /** Reverts the query's latest judgment edit (in the database: across reloads). */
  undo(collection: CollectionRow, queryId: string): Promise<JudgmentChange | undefined> {
    const split = this.splitOf(collection);
    return this.#enqueue(async () => {
      const change = await undoLastJudgment(database(), collection.id, split, queryId);
      if (change === undefined) notices.info('Nothing to undo for this query in this judgment set.');
      await this.#applied(collection, split, queryId, change);
      return change;
    });
  }

  async #applied(collection: CollectionRow, split: string, queryId: string, change: JudgmentChange | undefined): Promise<void> {
    if (change !== undefined && !openCollection.applyJudgment(collection.id, split, change)) {
      // The set was created by this judgment, or another split was shown: show this one, read afresh.
      await collections.refresh();
      if (this.newSplit === split) this.newSplit = null;
      app.split = split;
      await openCollection.reload(collection.id, split);
    }
    await this.refreshUndo(collection, queryId);
  }

  /** Reads which edit undo would revert now. */
  async refreshUndo(collection: CollectionRow, queryId: string): Promise<void> {
    try {
      this.undoable = await lastUndoable(database(), collection.id, this.splitOf(collection), queryId);
    } catch (error) {
      notices.error(error);
    }
  }
}

export const judging = new Judging();

function decodeId(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

registerUrlSlice({
  keys: ['judge', 'jdepth', 'jdocs'],
  write() {
    if (app.view !== 'explore' || judging.session === null) return [];
    const params: Array<[string, string]> = [['judge', judging.layout]];
    if (judging.depth !== DEFAULT_POOL_DEPTH) params.push(['jdepth', String(judging.depth)]);
    // Ids may hold commas: each is encoded, the list joined by commas.
    if (judging.session.docIds !== undefined) params.push(['jdocs', judging.session.docIds.map(encodeURIComponent).join(',')]);
    return params;
  },
  read(params) {
    const mode = params.get('judge');
    const queryId = params.get('qid');
    if ((mode !== 'one' && mode !== 'list') || queryId === null) {
      judging.session = null;
      return;
    }
    judging.layout = mode;
    const depth = Number(params.get('jdepth') ?? DEFAULT_POOL_DEPTH);
    judging.depth = Number.isInteger(depth) && depth >= 1 && depth <= MAX_POOL_DEPTH ? depth : DEFAULT_POOL_DEPTH;
    const docs = params.get('jdocs');
    judging.start(queryId, docs === null || docs === '' ? undefined : docs.split(',').map(decodeId));
  },
  navigation: () => (judging.session === null ? '' : `judge|${judging.session.queryId}|${judging.session.docIds?.join(',') ?? ''}`),
});

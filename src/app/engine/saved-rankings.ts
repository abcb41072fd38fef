/**
 * Explore's rankings kept for the next visit (src/lib/storage/saved-rankings.ts holds them), so a restart
 * shows the last visit's rankings without waiting for the column workers (DESIGN.md, "Decisions").
 * A ranking is a function of its inputs, so its key names them all: the app's build, the
 * collection's content (its import time), the column's settings, the query and the depth. The engine
 * (retrieval-engine.ts) shows a saved ranking at once and opens the column's index and vectors in the
 * background, for the next query.
 *
 * A write waits until no ranking has come for QUIET_MS and the page is idle, and takes the latest ranking of
 * each column's settings by then: the columns' answers to one query go in one transaction, and typing (a
 * ranking per pause) writes once it stops, the last query's rankings only: a write per typed query slowed
 * typing (bench:app's typed step).
 */
import type { RetrieverConfig } from '../../lib/retrievers/config.ts';
import { settingsKey } from '../../lib/settings-key.ts';
import type { RankQuery } from '../../lib/retrievers/ranking.ts';
import { queryKey, type RankResult } from './column-ranking.ts';

const QUIET_MS = 1000;

/** A column's result as saved: no timing, it is not ranked again. */
export type SavedRanking = Omit<RankResult, 'ms' | 'saved'>;

/** Where saved rankings live (the database in the page, a map in tests). */
export interface SavedRankingStore {
  read(key: string): Promise<unknown>;
  write(rankings: Array<{ key: string; collectionId: string; value: SavedRanking }>): Promise<void>;
}

/**
 * Whether a column's ranking is a function of its key. Not an imported run (a file imported again under
 * the same name replaces it), not a cross-encoder's (a hub model may change), not an HNSW search (a graph
 * built again may answer otherwise).
 */
export function savable(retriever: RetrieverConfig): boolean {
  switch (retriever.kind) {
    case 'bm25':
    case 'rm3':
    case 'bo1':
    // Its model is named by the fingerprint of its file: one key, one model.
    case 'augmented':
      return true;
    case 'dense':
    case 'ledr':
    case 'rrf':
    case 'convex':
      return retriever.dense.search === 'exact';
    default:
      return false;
  }
}

/** A stored value that is a ranking of this kind (anything else is ignored: an older or damaged row). */
function isSavedRanking(value: unknown, kind: RetrieverConfig['kind']): value is SavedRanking {
  const ranking = (value as { ranking?: { kind?: unknown; hits?: unknown } } | null)?.ranking;
  return ranking?.kind === kind && Array.isArray(ranking.hits);
}

export class SavedRankings {
  /** The latest ranking to write for each collection and column settings. */
  readonly #pending = new Map<string, { key: string; collectionId: string; value: SavedRanking }>();
  #quiet: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: SavedRankingStore,
    /** Identifies the app's code: a ranking saved by another build is never shown. */
    private readonly build: string,
    /** Runs the write once the rankings have rested (the page: when idle). */
    private readonly later: (write: () => void) => void = (write) => setTimeout(write, 0),
    private readonly quietMs = QUIET_MS,
  ) {}

  /** The key of a column's ranking, or undefined when it is not saved (not savable, collection unknown). */
  key(collectionId: string, version: string | number | undefined, retriever: RetrieverConfig, query: RankQuery, depth: number): string | undefined {
    if (version === undefined || !savable(retriever)) return undefined;
    return [this.build, collectionId, String(version), settingsKey(retriever), queryKey(query), String(depth)].join('\u0000');
  }

  /** The ranking saved under `key` for a column of `kind`; undefined when none (or the store fails). */
  async read(key: string, kind: RetrieverConfig['kind']): Promise<SavedRanking | undefined> {
    for (const pending of this.#pending.values()) if (pending.key === key) return pending.value;
    try {
      const value = await this.store.read(key);
      return isSavedRanking(value, kind) ? value : undefined;
    } catch {
      // A missing table or a closed database: the column ranks as if nothing were saved.
      return undefined;
    }
  }

  /** Saves a ranking with the next write. */
  save(key: string, collectionId: string, retriever: RetrieverConfig, value: SavedRanking): void {
    this.#pending.set(`${collectionId}\u0000${settingsKey(retriever)}`, { key, collectionId, value });
    clearTimeout(this.#quiet);
    this.#quiet = setTimeout(() => this.later(() => void this.flush()), this.quietMs);
  }

  /** Drops what waits to be saved for a collection (deleted or imported again). */
  forget(collectionId: string): void {
    for (const [slot, pending] of this.#pending) if (pending.collectionId === collectionId) this.#pending.delete(slot);
  }

  /** Writes what waits to be saved now. A failed write is dropped: the next visit ranks anew. */
  async flush(): Promise<void> {
    clearTimeout(this.#quiet);
    const rankings = [...this.#pending.values()];
    this.#pending.clear();
    if (rankings.length > 0) await this.store.write(rankings).catch(() => undefined);
  }
}

import type { PlaygroundDatabase, SavedRankingRow } from './db.ts';

/**
 * The Explore columns' last rankings, kept across visits (the `savedRankings` table of db.ts). A ranking is a
 * function of what its key names — the app's build, the collection's content, the column's settings and the
 * query — so a visit that finds its key can show the ranking before any worker has started
 * (src/app/engine/saved-rankings.ts makes the keys). Deleting a collection deletes its rows; beyond that only
 * the most recently saved SAVED_RANKINGS_KEPT rows are kept, so the table stays a few megabytes at most.
 */
export const SAVED_RANKINGS_KEPT = 32;

/** The value saved under `key`, or undefined. */
export async function readSavedRanking(db: PlaygroundDatabase, key: string): Promise<unknown> {
  return (await db.savedRankings.get(key))?.value;
}

/** Saves rankings (replacing rows of the same key) and drops the oldest beyond SAVED_RANKINGS_KEPT. */
export async function saveRankings(db: PlaygroundDatabase, rankings: ReadonlyArray<Omit<SavedRankingRow, 'savedAt'>>, now = Date.now()): Promise<void> {
  await db.transaction('rw', db.savedRankings, async () => {
    await db.savedRankings.bulkPut(rankings.map((ranking) => ({ ...ranking, savedAt: now })));
    const count = await db.savedRankings.count();
    if (count <= SAVED_RANKINGS_KEPT) return;
    const oldest = await db.savedRankings.orderBy('savedAt').limit(count - SAVED_RANKINGS_KEPT).primaryKeys();
    await db.savedRankings.bulkDelete(oldest);
  });
}

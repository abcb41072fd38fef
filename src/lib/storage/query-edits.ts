import { Dexie } from 'dexie';
import type { Query } from '../types.ts';
import type { PlaygroundDatabase, QueryRow } from './db.ts';
import type { StoredQueryRow } from './collections.ts';

/**
 * Adding, editing and deleting the queries of a stored collection, so a corpus imported without queries
 * gets some (a typed query saved as a query), and a test collection can be built in the app.
 *
 * Query ids must survive every format the collection is exported to: TREC qrels split lines on white
 * space and read `#` as a comment, BEIR's TSV splits on tabs. So an id is 1–64 characters without white
 * space, not starting with `#`. New queries go after the existing ones (file order), and deleting a query
 * deletes its judgments in every split and their edit history: a judgment of a query that is gone would
 * be counted by every metric and could not be shown or edited.
 */

const ID_PATTERN = /^[^\s#][^\s]{0,63}$/u;
const MAX_QUERY_LENGTH = 2000;

/** Why an id cannot name a query, or undefined. */
export function queryIdProblem(id: string): string | undefined {
  if (id.length === 0) return 'the id is empty';
  if (!ID_PATTERN.test(id)) return 'an id is 1–64 characters without spaces, not starting with "#" (TREC qrels could not hold it)';
  return undefined;
}

/** The first free id of the form `q<N>` (N counting up from the number of queries + 1). */
export function nextQueryId(existing: ReadonlySet<string> | ReadonlyMap<string, unknown>): string {
  for (let n = existing.size + 1; ; n++) {
    const id = `q${n}`;
    if (!existing.has(id)) return id;
  }
}

function checkText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length === 0) throw new Error('a query needs some text');
  if (trimmed.length > MAX_QUERY_LENGTH) throw new Error(`a query is at most ${MAX_QUERY_LENGTH} characters (this one has ${trimmed.length})`);
  return trimmed;
}

function queryRange(db: PlaygroundDatabase, collectionId: string) {
  return db.queries.where('[collectionId+id]').between([collectionId, Dexie.minKey], [collectionId, Dexie.maxKey], true, true);
}

async function requireCollection(db: PlaygroundDatabase, collectionId: string) {
  const row = await db.collections.get(collectionId);
  if (row?.status !== 'ready') throw new Error(`collection "${collectionId}" is not stored in this browser`);
  return row;
}

/**
 * Adds a query (id: `query.id`, else the next free `q<N>`), after the existing ones. Rejects a taken or
 * unusable id and empty text. Resolves with the query as stored.
 */
export async function addQuery(db: PlaygroundDatabase, collectionId: string, query: { id?: string; text: string; metadata?: Record<string, unknown> }): Promise<Query> {
  const text = checkText(query.text);
  return db.transaction('rw', [db.collections, db.queries], async () => {
    const collection = await requireCollection(db, collectionId);
    const rows = (await queryRange(db, collectionId).toArray()) as StoredQueryRow[];
    const ids = new Set(rows.map((row) => row.id));
    const id = query.id?.trim() || nextQueryId(ids);
    const problem = queryIdProblem(id);
    if (problem !== undefined) throw new Error(`query id "${id}": ${problem}`);
    if (ids.has(id)) throw new Error(`"${collection.name}" already has a query "${id}"`);
    const ord = rows.reduce((max, row) => Math.max(max, row.ord ?? -1), -1) + 1;
    const stored: StoredQueryRow = { collectionId, id, text, ord, ...(query.metadata === undefined ? {} : { metadata: query.metadata }) };
    await db.queries.add(stored);
    await db.collections.update(collectionId, { queryCount: rows.length + 1 });
    return queryOf(stored);
  });
}

function queryOf(row: QueryRow): Query {
  return row.metadata === undefined ? { id: row.id, text: row.text } : { id: row.id, text: row.text, metadata: row.metadata };
}

/**
 * Changes a query's text and/or metadata (its id, place and judgments stay). Metadata keys given as
 * undefined are removed; an empty metadata object is dropped. Resolves with the query as stored.
 */
export async function updateQuery(
  db: PlaygroundDatabase,
  collectionId: string,
  id: string,
  change: { text?: string; metadata?: Record<string, unknown | undefined> },
): Promise<Query> {
  const text = change.text === undefined ? undefined : checkText(change.text);
  return db.transaction('rw', [db.collections, db.queries], async () => {
    await requireCollection(db, collectionId);
    const row = await db.queries.get([collectionId, id]);
    if (row === undefined) throw new Error(`query "${id}" is not stored any more`);
    const next: QueryRow = { ...row, text: text ?? row.text };
    if (change.metadata !== undefined) {
      const metadata: Record<string, unknown> = { ...row.metadata };
      for (const [key, value] of Object.entries(change.metadata)) {
        if (value === undefined) delete metadata[key];
        else metadata[key] = value;
      }
      if (Object.keys(metadata).length === 0) delete next.metadata;
      else next.metadata = metadata;
    }
    await db.queries.put(next);
    return queryOf(next);
  });
}

/** Deletes a query with its judgments in every split and their history; resolves with the judgments removed. */
export async function deleteQuery(db: PlaygroundDatabase, collectionId: string, id: string): Promise<number> {
  return db.transaction('rw', [db.collections, db.queries, db.qrels, db.judgmentEdits], async () => {
    const collection = await requireCollection(db, collectionId);
    if ((await db.queries.get([collectionId, id])) === undefined) throw new Error(`query "${id}" is not stored any more`);
    await db.queries.delete([collectionId, id]);
    let removed = 0;
    for (const split of collection.splits) {
      const row = await db.qrels.get([collectionId, split]);
      if (row === undefined) continue;
      const kept = row.judgments.filter(([queryId]) => queryId !== id);
      if (kept.length === row.judgments.length) continue;
      removed += row.judgments.length - kept.length;
      await db.qrels.put({ ...row, judgments: kept });
    }
    await db.judgmentEdits.where('collectionId').equals(collectionId).filter((edit) => edit.queryId === id).delete();
    await db.collections.update(collectionId, { queryCount: Math.max(0, collection.queryCount - 1) });
    return removed;
  });
}

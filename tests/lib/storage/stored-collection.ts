/** A small stored collection for storage tests: documents and queries given in memory, no judgments. */
import type { Doc, Query } from '../../../src/lib/types.ts';
import { importCollection } from '../../../src/lib/storage/collections.ts';
import { PlaygroundDatabase, type CollectionRow } from '../../../src/lib/storage/db.ts';

async function* items<T>(list: readonly T[]): AsyncGenerator<T> {
  for (const item of list) yield item;
}

let count = 0;

/** A database of its own (fake-indexeddb) per call; `name` reopens an earlier one (a "reload"). */
export function testDb(prefix: string, name?: string): PlaygroundDatabase {
  return new PlaygroundDatabase(name ?? `${prefix}-${count++}-${Math.random().toString(36).slice(2)}`);
}

export const DOCS: Doc[] = [
  { id: 'd1', title: 'Sourdough', text: 'Wild yeast ferments the dough slowly.' },
  { id: 'd2', title: '', text: 'Green tea is steamed after picking.' },
  { id: 'd3', title: 'Glaciers', text: 'A glacier carves valleys as it moves.', metadata: { source: 'notes' } },
  { id: 'd4', title: 'Tides', text: 'Tides follow the moon.' },
];

export async function storeCollection(
  db: PlaygroundDatabase,
  id: string,
  options: { docs?: readonly Doc[]; queries?: readonly Query[] } = {},
): Promise<CollectionRow> {
  return importCollection(
    db,
    { id, name: `Collection ${id}`, source: { kind: 'local', detail: 'test' } },
    { documents: items(options.docs ?? DOCS), ...(options.queries === undefined ? {} : { queries: items(options.queries) }), qrels: [] },
    { locks: null },
  );
}

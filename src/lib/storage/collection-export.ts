import { writeBeirZip } from '../data/beir-zip.ts';
import { folderName } from '../data/folder-name.ts';
import type { Doc } from '../types.ts';
import { docFromRow, getCollection, loadAllQrels, loadQueries, readDocumentBatches } from './collections.ts';
import type { PlaygroundDatabase } from './db.ts';

/**
 * A stored collection — documents, queries (with the information needs written in the app, in their
 * metadata) and every split, judgment sets made in the app included — as a BEIR zip (data/beir-zip.ts),
 * which the Datasets view imports back as it was.
 */
export async function collectionBeirZip(
  db: PlaygroundDatabase,
  collectionId: string,
  options: { signal?: AbortSignal } = {},
): Promise<{ fileName: string; chunks: Uint8Array[]; documents: number; queries: number; splits: string[] }> {
  const collection = await getCollection(db, collectionId);
  if (collection === undefined) throw new Error(`collection "${collectionId}" is not stored in this browser`);
  const [queries, allQrels] = await Promise.all([loadQueries(db, collectionId), loadAllQrels(db, collectionId)]);
  // Splits in the collection's order (imported ones first, judgment sets as they were made).
  const qrels = new Map([...collection.splits, ...allQrels.keys()].filter((split, i, all) => all.indexOf(split) === i && allQrels.has(split)).map((split) => [split, allQrels.get(split)!]));
  let documents = 0;
  async function* batches(): AsyncGenerator<Doc[]> {
    for await (const rows of readDocumentBatches(db, collectionId, { signal: options.signal })) {
      documents += rows.length;
      yield rows.map(docFromRow);
    }
  }
  const folder = folderName(collection.name);
  const chunks = await writeBeirZip({ folder, documents: batches(), queries: queries.values(), qrels }, options);
  const splits = [...qrels].filter(([, judged]) => [...judged.values()].some((docs) => docs.size > 0)).map(([split]) => split);
  return { fileName: `${folder}.zip`, chunks, documents, queries: queries.size, splits };
}

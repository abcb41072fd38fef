/**
 * What a person changes in a stored collection (from Explore, its judging mode and Datasets): queries
 * (save a typed query, save an edited text, delete), a query's information need, the grade labels, and the
 * judgments' files (export in TREC or BEIR form, import into a judgment set, the whole collection as a
 * BEIR zip). Each writes IndexedDB first, then updates what the page holds (openCollection, the collection
 * list), and reports a failure as a notice naming what went wrong; none throws. What the view on screen
 * does next (select the saved query, drop the edit) is the caller's.
 */
import { folderName } from '../../lib/data/folder-name.ts';
import { formatQrelsFile, QRELS_FORMATS, readQrelsFile, type QrelsFormat, type ReadQrelsFile } from '../../lib/data/qrels-file.ts';
import { splitFromName } from '../../lib/import/classify.ts';
import type { GradeLabel } from '../../lib/judging/grades.ts';
import { loadQrels } from '../../lib/storage/collections.ts';
import { database, type CollectionRow } from '../../lib/storage/db.ts';
import { replaceJudgmentSet, setGradeLabels } from '../../lib/storage/judgments.ts';
import { addQuery, deleteQuery, updateQuery } from '../../lib/storage/query-edits.ts';
import type { Query } from '../../lib/types.ts';
import { app } from '../app-state.svelte.ts';
import { collections } from './collections.svelte.ts';
import { downloadBlob, downloadText } from '../shell/download.ts';
import { openCollection } from './open-collection.svelte.ts';
import { formatCount } from '../shell/format.ts';
import { jobs } from '../shell/jobs.svelte.ts';
import { notices } from '../shell/notices.svelte.ts';

/** Saves text typed in Explore as a new query (next free id); resolves with it (undefined when it failed). */
export async function saveTypedQuery(collection: CollectionRow, text: string, metadata?: Record<string, unknown>): Promise<Query | undefined> {
  try {
    const query = await addQuery(database(), collection.id, { text, ...(metadata === undefined ? {} : { metadata }) });
    openCollection.putQuery(collection.id, query);
    await collections.refresh();
    notices.info(`Saved as query ${query.id}.`);
    return query;
  } catch (error) {
    notices.error(error);
    return undefined;
  }
}

/** Saves the edited text of a stored query as its text (its judgments stay); false when it failed. */
export async function saveQueryText(collection: CollectionRow, queryId: string, text: string): Promise<boolean> {
  try {
    const query = await updateQuery(database(), collection.id, queryId, { text });
    openCollection.putQuery(collection.id, query);
    notices.info(`Query ${queryId} now reads “${query.text}”.`);
    return true;
  } catch (error) {
    notices.error(error);
    return false;
  }
}

/** Saves a query's information need (its `narrative`, as BEIR's TREC-COVID queries name it); blank removes it. */
export async function saveNarrative(collection: CollectionRow, queryId: string, narrative: string): Promise<boolean> {
  try {
    const trimmed = narrative.trim();
    const query = await updateQuery(database(), collection.id, queryId, { metadata: { narrative: trimmed.length > 0 ? trimmed : undefined } });
    openCollection.putQuery(collection.id, query);
    return true;
  } catch (error) {
    notices.error(error);
    return false;
  }
}

/** Deletes a query with its judgments (every split); Explore moves to another query. */
export async function removeQuery(collection: CollectionRow, queryId: string): Promise<void> {
  try {
    const removed = await deleteQuery(database(), collection.id, queryId);
    openCollection.removeQuery(collection.id, queryId);
    await collections.refresh();
    notices.info(`Deleted query ${queryId}${removed > 0 ? ` and its ${formatCount(removed)} judgment${removed === 1 ? '' : 's'}` : ''}.`);
  } catch (error) {
    notices.error(error);
  }
}

export async function saveGrades(collection: CollectionRow, grades: readonly GradeLabel[]): Promise<void> {
  try {
    await setGradeLabels(database(), collection.id, grades);
    await collections.refresh();
    notices.info('Grade labels saved for this collection.');
  } catch (error) {
    notices.error(error);
  }
}

/** File name of a judgment set's export: `<collection>.<split>.qrels` or `.tsv`. */
export function judgmentsFileName(collection: CollectionRow, split: string, format: QrelsFormat): string {
  return `${folderName(collection.name)}.${split}.${QRELS_FORMATS[format].extension}`;
}

/** The judgment set a file of judgments goes to by default: the split its name carries. */
export function splitOfFileName(collection: CollectionRow, fileName: string): string {
  const prefix = `${folderName(collection.name)}.`;
  const stem = fileName.replace(/\.(qrels|tsv|txt|csv)$/i, '');
  const split = stem.startsWith(prefix) ? stem.slice(prefix.length) : splitFromName(stem.replace(/\.[^.]*$/, '') || stem);
  return split.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'imported';
}

/** Downloads a split's judgments as a file. */
export async function exportJudgments(collection: CollectionRow, split: string, format: QrelsFormat): Promise<void> {
  try {
    const qrels = await loadQrels(database(), collection.id, split);
    if (qrels === undefined || qrels.size === 0) throw new Error(`the judgment set ${split} holds no judgments yet`);
    downloadText(judgmentsFileName(collection, split, format), formatQrelsFile(qrels, format), 'text/plain');
  } catch (error) {
    notices.error(error);
  }
}

/** Reads a judgments file for the import form (nothing is written). */
export async function readJudgmentsFile(file: File): Promise<ReadQrelsFile | undefined> {
  try {
    return await readQrelsFile(new Uint8Array(await file.arrayBuffer()), file.name);
  } catch (error) {
    notices.error(error);
    return undefined;
  }
}

/**
 * Writes read judgments as the split `split` (replacing it when it exists), then shows that split. Says
 * how many judged queries or documents the collection does not have.
 */
export async function importJudgments(collection: CollectionRow, split: string, read: ReadQrelsFile): Promise<boolean> {
  try {
    await replaceJudgmentSet(database(), collection.id, split, read.qrels);
    await collections.refresh();
    app.split = split;
    await openCollection.reload(collection.id, split);
    const unknownQueries = [...read.qrels.keys()].filter((id) => !openCollection.byId.has(id));
    const note = unknownQueries.length > 0 ? ` ${unknownQueries.length} judged quer${unknownQueries.length === 1 ? 'y is' : 'ies are'} not among the collection's queries (${unknownQueries.slice(0, 3).join(', ')}${unknownQueries.length > 3 ? ', …' : ''}).` : '';
    notices.info(`Imported ${formatCount(read.judgments)} judgments of ${formatCount(read.qrels.size)} queries (${QRELS_FORMATS[read.format].label}) as the judgment set ${split}.${note}`);
    return true;
  } catch (error) {
    notices.error(error);
    return false;
  }
}

/** Downloads the collection, its queries and every judgment set as a BEIR zip (a job in the tray). */
export async function exportCollectionZip(collection: CollectionRow): Promise<void> {
  const job = jobs.start(`Export ${collection.name} as a BEIR zip`);
  try {
    // The zip writer (fflate) loads when a zip is asked for, not with the page.
    const { collectionBeirZip } = await import('../../lib/storage/collection-export.ts');
    const zip = await collectionBeirZip(database(), collection.id, { signal: job.signal });
    downloadBlob(zip.fileName, new Blob(zip.chunks.map((chunk) => new Uint8Array(chunk)), { type: 'application/zip' }));
    job.finish(`${formatCount(zip.documents)} docs, ${formatCount(zip.queries)} queries, ${zip.splits.length} judgment set${zip.splits.length === 1 ? '' : 's'}`);
  } catch (error) {
    job.fail(error);
    notices.error(error);
  }
}

/**
 * Downloads the collection's documents as a Pyserini JSON collection (`{"id", "contents"}` lines, contents as
 * the playground's BM25 indexes them), for `pyserini.index.lucene` and `pyserini.encode` (a job in the tray).
 */
export async function exportCollectionPyserini(collection: CollectionRow): Promise<void> {
  const job = jobs.start(`Export ${collection.name} as a Pyserini JSON collection`);
  try {
    const { collectionPyseriniJsonl } = await import('../../lib/import/pyserini-export.ts');
    const file = await collectionPyseriniJsonl(database(), collection.id, { signal: job.signal, onDocuments: (done) => job.progress(done, collection.docCount) });
    downloadBlob(file.fileName, new Blob(file.chunks.map((chunk) => new Uint8Array(chunk)), { type: 'application/jsonl' }));
    job.finish(`${formatCount(file.documents)} docs`);
  } catch (error) {
    job.fail(error);
    notices.error(error);
  }
}

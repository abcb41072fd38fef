import { getDocuments } from './documents.ts';
import type { GradeLabel } from '../judging/grades.ts';
import { gradeLabels } from '../judging/grades.ts';
import type { Qrels } from '../types.ts';
import type { CollectionRow, JudgmentEditRow, PlaygroundDatabase, QrelsRow } from './db.ts';

/**
 * Judgments a person makes in the app, stored as a judgment set: a qrels split like any imported one (the
 * `qrels` row every reader already uses, so metrics, Evaluate and the exports see a judgment as soon as it
 * is written), plus one `judgmentEdits` row per change, so that
 * - undo works across reloads: it reverts the latest edit not yet undone (of a query, or of the set) and
 *   records that it did, so a second undo goes one step further back;
 * - a judgment's history (who changed what when, as far as one browser knows) can be shown.
 *
 * A judgment keeps its place in the split's file order when its grade changes, and a new one goes last,
 * so an exported file lists judgments in the order they were first made. Replacing a split by an imported
 * file clears its history: the edits described grades that are gone.
 */

export const DEFAULT_JUDGMENT_SET = 'my-judgments';

const SPLIT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why a judgment set name cannot be used (it becomes a file name, `qrels/<name>.tsv`), or undefined. */
export function splitNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (!SPLIT_NAME.test(name)) return 'use letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit): the name becomes a file name, qrels/<name>.tsv';
  return undefined;
}

/** What an edit did to the judgments, for a reader that keeps them in memory: `grade` null = removed. */
export interface JudgmentChange {
  queryId: string;
  docId: string;
  grade: number | null;
}

async function readyCollection(db: PlaygroundDatabase, collectionId: string): Promise<CollectionRow> {
  const row = await db.collections.get(collectionId);
  if (row?.status !== 'ready') throw new Error(`collection "${collectionId}" is not stored in this browser`);
  return row;
}

/** The split's row, created (and the split added to the collection) when `create` and it does not exist. */
async function splitRow(db: PlaygroundDatabase, collection: CollectionRow, split: string, create: boolean): Promise<QrelsRow | undefined> {
  const row = await db.qrels.get([collection.id, split]);
  if (row !== undefined || !create) return row;
  const problem = splitNameProblem(split);
  if (problem !== undefined) throw new Error(`judgment set "${split}": ${problem}`);
  const created: QrelsRow = { collectionId: collection.id, split, judgments: [] };
  await db.qrels.put(created);
  if (!collection.splits.includes(split)) await db.collections.update(collection.id, { splits: [...collection.splits, split] });
  return created;
}

/** Sets `grade` at its place in the triples (a new judgment last; null removes it). */
function applyGrade(judgments: Array<[string, string, number]>, queryId: string, docId: string, grade: number | null): number | null {
  const at = judgments.findIndex(([q, d]) => q === queryId && d === docId);
  const before = at < 0 ? null : judgments[at]![2];
  if (grade === null) {
    if (at >= 0) judgments.splice(at, 1);
  } else if (at < 0) judgments.push([queryId, docId, grade]);
  else judgments[at] = [queryId, docId, grade];
  return before;
}

/**
 * Judges `docId` for `queryId` in the judgment set `split` (created when missing) and records the edit.
 * `grade` null removes the judgment. Resolves with the change, or undefined when the grade was already so.
 * The query and the document must exist in the collection; grades must be integers.
 */
export async function setJudgment(
  db: PlaygroundDatabase,
  collectionId: string,
  split: string,
  queryId: string,
  docId: string,
  grade: number | null,
): Promise<JudgmentChange | undefined> {
  if (grade !== null && !Number.isSafeInteger(grade)) throw new RangeError(`grade ${grade} is not an integer`);
  return db.transaction('rw', [db.collections, db.qrels, db.judgmentEdits, db.queries, db.documentDirectories, db.documentChunks], async () => {
    const collection = await readyCollection(db, collectionId);
    if ((await db.queries.get([collectionId, queryId])) === undefined) throw new Error(`query "${queryId}" is not in "${collection.name}"`);
    if ((await getDocuments(db, collectionId, [docId]))[0] === undefined) {
      throw new Error(`document "${docId}" is not in "${collection.name}"`);
    }
    const row = (await splitRow(db, collection, split, true))!;
    const before = applyGrade(row.judgments, queryId, docId, grade);
    if (before === grade) return undefined;
    await db.qrels.put(row);
    await db.judgmentEdits.add({ collectionId, split, queryId, docId, before, after: grade, kind: 'judge', at: Date.now() });
    return { queryId, docId, grade };
  });
}

/** The latest edit an undo would revert (of one query, or of the whole set), or undefined. */
export async function lastUndoable(db: PlaygroundDatabase, collectionId: string, split: string, queryId?: string): Promise<JudgmentEditRow | undefined> {
  const edits =
    queryId === undefined
      ? db.judgmentEdits.where('[collectionId+split]').equals([collectionId, split])
      : db.judgmentEdits.where('[collectionId+split+queryId]').equals([collectionId, split, queryId]);
  // Index order is key, then primary key (seq): reversed, the latest edit comes first.
  return edits
    .reverse()
    .filter((edit) => edit.kind === 'judge' && edit.undone !== true)
    .first();
}

/**
 * Reverts the latest judging edit not yet undone (of `queryId`, or of any query of the set): its document
 * gets its grade from before that edit back (or loses its judgment). Resolves with the change made, or
 * undefined when there is nothing to undo.
 */
export async function undoLastJudgment(db: PlaygroundDatabase, collectionId: string, split: string, queryId?: string): Promise<JudgmentChange | undefined> {
  return db.transaction('rw', [db.collections, db.qrels, db.judgmentEdits], async () => {
    const edit = await lastUndoable(db, collectionId, split, queryId);
    if (edit === undefined) return undefined;
    const row = await db.qrels.get([collectionId, split]);
    if (row === undefined) throw new Error(`judgment set "${split}" is not stored any more`);
    const current = applyGrade(row.judgments, edit.queryId, edit.docId, edit.before);
    await db.qrels.put(row);
    await db.judgmentEdits.update(edit.seq!, { undone: true });
    await db.judgmentEdits.add({
      collectionId,
      split,
      queryId: edit.queryId,
      docId: edit.docId,
      before: current,
      after: edit.before,
      kind: 'undo',
      undoes: edit.seq!,
      at: Date.now(),
    });
    return { queryId: edit.queryId, docId: edit.docId, grade: edit.before };
  });
}

/** Every edit of one judgment, oldest first. */
export async function judgmentHistory(db: PlaygroundDatabase, collectionId: string, split: string, queryId: string, docId: string): Promise<JudgmentEditRow[]> {
  return db.judgmentEdits.where('[collectionId+split+queryId+docId]').equals([collectionId, split, queryId, docId]).toArray();
}

/**
 * Replaces a split's judgments (an imported qrels file), creating the split when missing; its edit history
 * is cleared. The triples keep the order of `qrels`.
 */
export async function replaceJudgmentSet(db: PlaygroundDatabase, collectionId: string, split: string, qrels: Qrels): Promise<CollectionRow> {
  return db.transaction('rw', [db.collections, db.qrels, db.judgmentEdits], async () => {
    const collection = await readyCollection(db, collectionId);
    const row = (await splitRow(db, collection, split, true))!;
    row.judgments = [];
    for (const [queryId, docs] of qrels) for (const [docId, grade] of docs) row.judgments.push([queryId, docId, grade]);
    await db.qrels.put(row);
    await db.judgmentEdits.where('[collectionId+split]').equals([collectionId, split]).delete();
    return (await db.collections.get(collectionId))!;
  });
}

/** Saves a collection's grade labels and guidelines (normalized: four grades, defaults for blanks). */
export async function setGradeLabels(db: PlaygroundDatabase, collectionId: string, grades: readonly GradeLabel[]): Promise<GradeLabel[]> {
  const normalized = gradeLabels(grades);
  const updated = await db.collections.where('id').equals(collectionId).and((row) => row.status === 'ready').modify({ grades: normalized });
  if (updated === 0) throw new Error(`no stored collection "${collectionId}"`);
  return normalized;
}

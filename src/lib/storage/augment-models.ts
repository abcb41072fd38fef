import type { AugmentModelRow, PlaygroundDatabase } from './db.ts';

/**
 * Trained query-augmentation models kept across visits (the `augmentModels` and `augmentModelFiles` tables of
 * db.ts). The file is kept as exported, so an export is the stored bytes and its key (fnv1a of the text) is
 * the same on every machine. Parsing and checking the text is the caller's (src/lib/augment/model-file.ts).
 */
export interface StoredAugmentModel extends AugmentModelRow {
  text: string;
}

/** Stores a model (replacing one of the same key: importing a file twice keeps one copy). */
export async function putAugmentModel(db: PlaygroundDatabase, model: Omit<StoredAugmentModel, 'storedAt'>, now = Date.now()): Promise<void> {
  const { text, ...summary } = model;
  await db.transaction('rw', db.augmentModels, db.augmentModelFiles, async () => {
    await db.augmentModelFiles.put({ key: model.key, text });
    await db.augmentModels.put({ ...summary, storedAt: now });
  });
}

/** The stored model of `key`, its file included, or undefined. */
export async function readAugmentModel(db: PlaygroundDatabase, key: string): Promise<StoredAugmentModel | undefined> {
  return db.transaction('r', db.augmentModels, db.augmentModelFiles, async () => {
    const [summary, file] = await Promise.all([db.augmentModels.get(key), db.augmentModelFiles.get(key)]);
    return summary === undefined || file === undefined ? undefined : { ...summary, text: file.text };
  });
}

/** Every stored model without its file, newest first. */
export async function listAugmentModels(db: PlaygroundDatabase): Promise<AugmentModelRow[]> {
  return db.augmentModels.orderBy('storedAt').reverse().toArray();
}

export async function renameAugmentModel(db: PlaygroundDatabase, key: string, name: string): Promise<void> {
  await db.augmentModels.update(key, { name });
}

export async function deleteAugmentModel(db: PlaygroundDatabase, key: string): Promise<void> {
  await db.transaction('rw', db.augmentModels, db.augmentModelFiles, async () => {
    await db.augmentModels.delete(key);
    await db.augmentModelFiles.delete(key);
  });
}

/**
 * The query-augmentation models stored in this browser, as Explore's add-column menu and an Augmented BM25
 * column's settings use them: the list (newest first), importing a model file (checked by parseModelFile
 * before it is stored), exporting one as the file it was stored as, and the column a model makes.
 */
import { modelRef, parseModelFile, type AugmentModel } from '../../lib/augment/model-file.ts';
import type { RetrieverConfig } from '../../lib/retrievers/config.ts';
import { listAugmentModels, putAugmentModel, readAugmentModel } from '../../lib/storage/augment-models.ts';
import { database, type AugmentModelRow } from '../../lib/storage/db.ts';

class StoredAugmentModels {
  list = $state.raw<AugmentModelRow[]>([]);
  loaded = $state(false);

  async refresh(): Promise<void> {
    this.list = await listAugmentModels(database());
    this.loaded = true;
  }

  /** Checks and stores a model file (storeModelFile), then lists it. */
  async importFile(fileName: string, text: string): Promise<Omit<AugmentModelRow, 'storedAt'>> {
    const row = await storeModelFile(fileName, text);
    await this.refresh();
    return row;
  }

  /** The model file stored under `key`, as it was stored (its key is the text's fingerprint). */
  async fileText(key: string): Promise<{ name: string; text: string } | undefined> {
    const stored = await readAugmentModel(database(), key);
    return stored === undefined ? undefined : { name: stored.name, text: stored.text };
  }

  /** The stored model of `key`, parsed (its training record says which split trained it), or undefined. */
  async model(key: string): Promise<AugmentModel | undefined> {
    const stored = await readAugmentModel(database(), key);
    return stored === undefined ? undefined : parseModelFile(stored.text, stored.name);
  }

  /** An Augmented BM25 column of a stored model: its BM25 settings are those it was trained over. */
  async retrieverOf(key: string): Promise<RetrieverConfig> {
    const stored = await readAugmentModel(database(), key);
    if (stored === undefined) throw new Error('The model is no longer stored in this browser.');
    const model = parseModelFile(stored.text, stored.name);
    return { kind: 'augmented', bm25: { k1: model.bm25.k1, b: model.bm25.b, analyzer: model.bm25.analyzer }, augmenter: modelRef(stored.text, stored.name, model) };
  }
}

export const storedAugmentModels = new StoredAugmentModels();

/**
 * Checks a model file (parseModelFile: a bad one is a message naming the file, and nothing is stored) and
 * stores it under its key, named after the file. Explore's picker and the Learn view import through it.
 */
export async function storeModelFile(fileName: string, text: string): Promise<Omit<AugmentModelRow, 'storedAt'>> {
  const model = parseModelFile(text, fileName);
  const name = fileName.replace(/(\.augment)?\.json$/i, '');
  const ref = modelRef(text, name, model);
  const row = { key: ref.key, name, collection: ref.collection, split: ref.split, analyzer: model.bm25.analyzer, encoder: model.encoderModel };
  await putAugmentModel(database(), { ...row, text });
  return row;
}

/**
 * The name a model's training record gives the open collection: the record's own when it names this
 * collection (by id or name, in any case), else the collection's name (a transfer).
 */
export function trainingCollectionName(model: AugmentModel, collection: { id: string; name: string }): string {
  const named = model.training.collection.toLowerCase();
  return named === collection.id.toLowerCase() || named === collection.name.toLowerCase() ? model.training.collection : collection.name;
}


/** A file name from a model's name: letters, digits, dots and dashes. */
export function modelFileName(name: string): string {
  return `${name.replace(/[^\p{L}\p{N}.-]+/gu, '-').replace(/^-+|-+$/g, '') || 'model'}.augment.json`;
}

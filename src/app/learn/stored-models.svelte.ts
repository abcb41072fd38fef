/**
 * The query-augmentation models stored in this browser, as the Learn view lists them: each with what trained
 * it, read from its file. Import, export and the column a model makes are the columns layer's
 * (columns/augment-models.svelte.ts, which Explore's add-column menu uses); rename and delete are here, and
 * every change refreshes that list too.
 */
import type { AugmentTraining } from '../../lib/augment/model-file.ts';
import { deleteAugmentModel, listAugmentModels, readAugmentModel, renameAugmentModel } from '../../lib/storage/augment-models.ts';
import { database, type AugmentModelRow } from '../../lib/storage/db.ts';
import type { Bm25Settings } from '../../lib/retrievers/config.ts';
import { modelFileName, storedAugmentModels } from '../columns/augment-models.svelte.ts';
import { columnList } from '../columns/columns.svelte.ts';
import { downloadText } from '../shell/download.ts';

export interface ListedModel extends AugmentModelRow {
  training: AugmentTraining;
  trainedRows: boolean;
  bm25: Bm25Settings;
}

/** What the list shows of a file, without decoding its weights (a file is megabytes of base64). */
function summaryOf(row: AugmentModelRow, text: string): ListedModel {
  const file = JSON.parse(text) as { training: AugmentTraining; encoder: { trainedRows: boolean }; bm25: ListedModel['bm25'] };
  return { ...row, training: file.training, trainedRows: file.encoder.trainedRows, bm25: file.bm25 };
}

class StoredModels {
  list = $state.raw<ListedModel[]>([]);
  loaded = $state(false);

  async refresh(): Promise<void> {
    const db = database();
    const rows = await listAugmentModels(db);
    const listed: ListedModel[] = [];
    for (const row of rows) {
      const stored = await readAugmentModel(db, row.key);
      if (stored !== undefined) listed.push(summaryOf(row, stored.text));
    }
    this.list = listed;
    this.loaded = true;
    await storedAugmentModels.refresh();
  }

  /** Validates and stores a model file; throws a message naming the file (nothing stored) when it is not one. */
  async importFile(file: File): Promise<string> {
    const row = await storedAugmentModels.importFile(file.name, await file.text());
    await this.refresh();
    return row.name;
  }

  async exportFile(key: string): Promise<void> {
    const file = await storedAugmentModels.fileText(key);
    if (file === undefined) throw new Error('That model is no longer stored in this browser.');
    downloadText(modelFileName(file.name), file.text, 'application/json');
  }

  async rename(key: string, name: string): Promise<void> {
    await renameAugmentModel(database(), key, name.trim());
    await this.refresh();
  }

  async remove(key: string): Promise<void> {
    await deleteAugmentModel(database(), key);
    await this.refresh();
  }

  /** Adds an Augmented BM25 column with the model to Explore's columns. */
  async addColumn(key: string): Promise<void> {
    columnList.addColumn(await storedAugmentModels.retrieverOf(key));
  }
}

export const storedModels = new StoredModels();

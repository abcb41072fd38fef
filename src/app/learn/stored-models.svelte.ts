/**
 * The query-augmentation models stored in this browser (storage/augment-models.ts), as the Learn view lists
 * them: each with what trained it, read from its file. Import validates a file before storing it; export is
 * the stored text, byte for byte; "Add its column" puts an Augmented BM25 column into Explore.
 */
import type { AugmentTraining } from '../../lib/augment/model-file.ts';
import type { Bm25AnalyzerName } from '../../lib/analysis/analyzers.ts';
import { deleteAugmentModel, listAugmentModels, readAugmentModel, renameAugmentModel } from '../../lib/storage/augment-models.ts';
import { database, type AugmentModelRow } from '../../lib/storage/db.ts';
import { columnList } from '../columns/columns.svelte.ts';
import { modelFileName, storeModelFile } from '../columns/augment-models.svelte.ts';
import { downloadText } from '../shell/download.ts';

export interface ListedModel extends AugmentModelRow {
  training: AugmentTraining;
  trainedRows: boolean;
  bm25: { k1: number; b: number; analyzer: Bm25AnalyzerName };
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
  }

  /** Validates and stores a model file; throws a message naming the file (nothing stored) when it is not one. */
  async importFile(file: File): Promise<string> {
    const { name } = await storeModelFile(file.name, await file.text());
    await this.refresh();
    return name;
  }

  async exportFile(key: string): Promise<void> {
    const stored = await readAugmentModel(database(), key);
    if (stored === undefined) throw new Error('that model is no longer stored');
    downloadText(modelFileName(stored.name), stored.text, 'application/json');
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
  addColumn(model: ListedModel): void {
    const { key, name, collection, split } = model;
    columnList.addColumn({ kind: 'augmented', bm25: model.bm25, augmenter: { key, name, collection, split } });
  }
}

export const storedModels = new StoredModels();

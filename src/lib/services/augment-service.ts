/**
 * What the query-augmentation worker runs: a stored model (IndexedDB, by its key) applied to query texts,
 * giving each text's weighted bag (src/lib/augment/augmenter.ts). A model, its encoder (a static table, or a
 * frozen transformer with the weights the file names: query-encoders.ts) and its analyzer are loaded once and kept. A model that is not stored here, or whose analyzer is not the column's,
 * is a message saying what to do, never a wrong ranking.
 */
import { PromiseCache } from './promise-cache.ts';
import type { AnalyzerLoader } from '../analysis/analyzer-loader.ts';
import { isBm25AnalyzerName, type Bm25AnalyzerName } from '../analysis/analyzers.ts';
import { Augmenter } from '../augment/augmenter.ts';
import { parseModelFile, type AugmentModel } from '../augment/model-file.ts';
import type { EncoderSources } from '../augment/encoder-loader.ts';
import type { ModelSpec } from '../dense/registry.ts';
import type { AugmenterRef } from '../retrievers/config.ts';
import type { ExpandedTerm } from '../retrievers/ranking.ts';
import { readAugmentModel } from '../storage/augment-models.ts';
import type { PlaygroundDatabase } from '../storage/db.ts';
import { QueryEncoders } from './query-encoders.ts';

export interface AugmentServiceOptions {
  db: PlaygroundDatabase;
  analyzers: AnalyzerLoader;
  /** Where the encoder a model file names is read from (the page: its model folder, or the hub). */
  encoders: EncoderSources;
  /** A model id → its spec; default the registry's. */
  resolveEncoder?: (model: string) => ModelSpec;
}

/** The message of a column whose model this browser does not hold. */
export function missingModelMessage(ref: Pick<AugmenterRef, 'name'>): string {
  return `The model "${ref.name}" is not stored in this browser: import the model file (Add column → Augmented BM25 → Import a model file…).`;
}

/** The message of a column whose analyzer is not its model's. */
export function analyzerMismatchMessage(ref: Pick<AugmenterRef, 'name'>, modelAnalyzer: string, columnAnalyzer: string): string {
  return `The model "${ref.name}" was trained over the ${modelAnalyzer} analyzer; this column's BM25 uses ${columnAnalyzer}: set the column's analyzer to ${modelAnalyzer}.`;
}

/** A model applied to queries, and the analyzer its terms are made by. */
interface LoadedAugmenter {
  augmenter: Augmenter;
  analyzer: Bm25AnalyzerName;
}

export class AugmentService {
  private readonly augmenters = new PromiseCache<string, LoadedAugmenter>();
  private readonly encoders: QueryEncoders;

  constructor(private readonly options: AugmentServiceOptions) {
    this.encoders = new QueryEncoders(options.encoders, options.resolveEncoder);
  }

  /** The weighted bag of each text under the model `ref` names, for a column whose BM25 uses `analyzer`. */
  async expand(ref: AugmenterRef, analyzer: Bm25AnalyzerName, texts: readonly string[]): Promise<ExpandedTerm[][]> {
    const loaded = await this.augmenter(ref);
    if (loaded.analyzer !== analyzer) throw new Error(analyzerMismatchMessage(ref, loaded.analyzer, analyzer));
    return loaded.augmenter.expandBatch(texts);
  }

  /** The model file stored under `key` (parsed), or undefined. */
  async model(key: string): Promise<AugmentModel | undefined> {
    const stored = await readAugmentModel(this.options.db, key);
    return stored === undefined ? undefined : parseModelFile(stored.text, stored.name);
  }

  private augmenter(ref: AugmenterRef): Promise<LoadedAugmenter> {
    return this.augmenters.get(ref.key, () => this.load(ref));
  }

  private async load(ref: AugmenterRef): Promise<LoadedAugmenter> {
    const model = await this.model(ref.key);
    if (model === undefined) throw new Error(missingModelMessage(ref));
    const name = model.bm25.analyzer;
    if (!isBm25AnalyzerName(name)) throw new Error(`The model "${ref.name}" names an analyzer this playground does not have: ${String(name)}.`);
    const analyzer = await this.options.analyzers.analyzer(name);
    const encoder = await this.encoders.open(model.encoderModel, analyzer, model.encoderDtype);
    if (encoder.dim !== model.params.encoderDim) {
      throw new Error(`The model "${ref.name}" was trained on ${model.params.encoderDim}-dimensional vectors; ${model.encoderModel} gives ${encoder.dim}.`);
    }
    return { augmenter: new Augmenter(model.params, encoder), analyzer: name };
  }

  /** Forgets a model (deleted, or stored again under the same key). */
  forget(key: string): void {
    this.augmenters.delete(key);
  }
}

/**
 * What the Learn worker does, as a plain class (Node tests drive it with fake-indexeddb): read a collection's
 * judged splits from IndexedDB, open its BM25 index through a Bm25Service (the stored one when it matches, as
 * the BM25 worker would), load the encoder (a static table, or a frozen transformer: query-encoders.ts),
 * train (src/lib/augment/splits.ts) with progress and cancellation, and store the finished model
 * (storage/augment-models.ts). A cancelled or failed run stores nothing.
 */
import type { Bm25AnalyzerName } from '../analysis/analyzers.ts';
import type { EncoderSources } from '../augment/encoder-loader.ts';
import { formatModelFile, modelRef, type AugmentTraining } from '../augment/model-file.ts';
import { trainOnSplits } from '../augment/splits.ts';
import type { EpochReport, HeldOutMeasure, JudgedQueries, TrainSettings } from '../augment/train.ts';
import { judgedQueries } from '../data/beir.ts';
import { resolveModelSpec, type ModelSpec } from '../dense/registry.ts';
import { putAugmentModel } from '../storage/augment-models.ts';
import { loadQrels, loadQueries } from '../storage/collections.ts';
import type { PlaygroundDatabase } from '../storage/db.ts';
import type { Bm25Service, IndexProgress } from './bm25-service.ts';
import { QueryEncoders } from './query-encoders.ts';

/** What measures the epochs: another judged split, or a seeded share of the training split's queries. */
export type HeldOutChoice = { kind: 'split'; split: string } | { kind: 'share'; share: number };

export interface LearnRequest {
  collectionId: string;
  /** The judged split trained on. */
  split: string;
  /** The split Evaluate evaluates: refused as the training split and as the held-out split. */
  evaluatedSplit: string;
  heldOut: HeldOutChoice;
  analyzer: Bm25AnalyzerName;
  /** BM25's k1 and b, kept in the model (its column ranks with them). */
  k1: number;
  b: number;
  /** A static table (`local/glove-100d-sif`) or a transformer (`local/tiny-bert`, hub models) of the registry. */
  encoder: string;
  settings: TrainSettings;
  /** The stored model's name; absent: one made of what trained it. */
  name?: string;
}

export type LearnPhase = 'reading' | 'indexing' | 'encoder' | 'training' | 'storing';

/** What a run reports, in order: phases, the index build's progress, each step, the baseline, each epoch. */
export type LearnEvent =
  | { kind: 'phase'; phase: LearnPhase; detail: string }
  | { kind: 'index'; progress: IndexProgress }
  | { kind: 'step'; step: number; steps: number; loss: number }
  | { kind: 'baseline'; measure: HeldOutMeasure }
  | { kind: 'epoch'; report: EpochReport };

/** The stored model's key and name and what trained it (the file itself stays in IndexedDB). */
export interface LearnResult {
  key: string;
  name: string;
  training: AugmentTraining;
  trainMs: number;
}

export interface AugmentTrainingServiceOptions {
  db: PlaygroundDatabase;
  /** Opens the collection's index with the analyzer asked for (the Learn worker's own service). */
  bm25: Bm25Service;
  /** Where the encoder's weights are read from (the worker: the app's model folder, or the hub). */
  encoders: EncoderSources;
  /** A model id → its spec; default the registry's. */
  resolveEncoder?: (model: string) => ModelSpec;
}

/** Why an encoder cannot train as asked, or undefined: a transformer is frozen (its rows are not a table's). */
export function encoderProblem(request: Pick<LearnRequest, 'encoder' | 'settings'>, resolve: (model: string) => ModelSpec = (model) => resolveModelSpec(model)): string | undefined {
  const { kind } = resolve(request.encoder);
  if (kind !== 'static-table' && kind !== 'transformer') return `${request.encoder} is a ${kind} model: it has no token states to encode queries with`;
  if (request.settings.trainRows && kind !== 'static-table') {
    return `${request.encoder} is a transformer, trained frozen: only a static table's rows can be trained (pick frozen)`;
  }
  return undefined;
}

/**
 * Why a request cannot train, or undefined when it can (the view shows the same words before Train). The
 * evaluated split is refused, unless it is the collection's only judged split: then a seeded share of its
 * queries is held out, and Evaluate measures the model on that share only (augment/splits.ts).
 */
export function learnRequestProblem(request: Pick<LearnRequest, 'split' | 'evaluatedSplit' | 'heldOut'>, judgedSplits: readonly string[]): string | undefined {
  const { heldOut } = request;
  if (!judgedSplits.includes(request.split)) return `the split "${request.split}" has no judgments`;
  if (heldOut.kind === 'share' && !(heldOut.share > 0 && heldOut.share < 1)) return `the held-out share must be above 0 and below 1 (it is ${heldOut.share})`;
  if (request.split === request.evaluatedSplit && (judgedSplits.length > 1 || heldOut.kind !== 'share')) {
    return `refusing to train on "${request.split}": it is the split Evaluate evaluates (pick another${judgedSplits.length > 1 ? '' : ', or hold out a share of it'})`;
  }
  if (heldOut.kind === 'split') {
    if (heldOut.split === request.split) return `the held-out split "${heldOut.split}" is the training split: pick another, or hold out a share`;
    if (heldOut.split === request.evaluatedSplit) return `refusing to measure epochs on "${heldOut.split}": it is the split Evaluate evaluates`;
  }
  return undefined;
}

/** A model's default name: what trained it, short. */
export function defaultModelName(collectionName: string, request: Pick<LearnRequest, 'split' | 'analyzer' | 'encoder' | 'settings'>): string {
  const { settings } = request;
  return `${collectionName} ${request.split}, ${request.analyzer}, ${request.encoder.split('/').pop()} ${settings.trainRows ? 'rows trained' : 'frozen'}, λ ${settings.lambda}, ${settings.epochs} epochs, seed ${settings.seed}`;
}

/** A macrotask's pause, so a worker hears a Cancel (and pings) between steps. */
const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class AugmentTrainingService {
  private readonly encoders: QueryEncoders;

  constructor(private readonly options: AugmentTrainingServiceOptions) {
    this.encoders = new QueryEncoders(options.encoders, options.resolveEncoder);
  }

  private async judged(collectionId: string, split: string): Promise<JudgedQueries> {
    const [queries, qrels] = await Promise.all([loadQueries(this.options.db, collectionId), loadQrels(this.options.db, collectionId, split)]);
    if (qrels === undefined) throw new Error(`${collectionId} has no judgments for the split "${split}"`);
    return { queries: judgedQueries(queries, qrels), qrels };
  }

  /** Trains the model `request` describes and stores it; `signal` stops it within a step, storing nothing. */
  async train(request: LearnRequest, onEvent: (event: LearnEvent) => void = () => undefined, signal?: AbortSignal): Promise<LearnResult> {
    const { collectionId, heldOut } = request;
    const collection = await this.options.db.collections.get(collectionId);
    if (collection === undefined) throw new Error(`no collection "${collectionId}" is stored in this browser`);
    const problem = learnRequestProblem(request, collection.splits) ?? encoderProblem(request, this.options.resolveEncoder);
    if (problem !== undefined) throw new Error(problem);
    const phase = (phase: LearnPhase, detail: string) => onEvent({ kind: 'phase', phase, detail });
    phase('reading', `the judgments of ${request.split}`);
    const judged = await this.judged(collectionId, request.split);
    const dev = heldOut.kind === 'split' ? { split: heldOut.split, judged: await this.judged(collectionId, heldOut.split) } : undefined;
    signal?.throwIfAborted();
    phase('indexing', `the ${request.analyzer} BM25 index`);
    await this.options.bm25.openIndex({ collectionId, analyzer: request.analyzer }, (progress) => onEvent({ kind: 'index', progress }), signal);
    const { index, analyzer } = this.options.bm25.reference(collectionId);
    phase('encoder', request.encoder);
    const encoder = await this.encoders.open(request.encoder, analyzer);
    signal?.throwIfAborted();
    phase('training', `${judged.queries.length} queries`);
    const bm25 = { k1: request.k1, b: request.b, analyzer: request.analyzer };
    const { model, result } = await trainOnSplits(
      // The collection's name, as the CLI records a dataset's: headers show it, and a model file from the CLI
      // names the same collection the same way.
      { collection: collection.name, split: request.split, judged, ...(dev === undefined ? {} : { dev }), heldOutShare: heldOut.kind === 'share' ? heldOut.share : 0 },
      { index, bm25, encoder },
      request.settings,
      {
        signal,
        onStep: async (step, steps, loss) => {
          onEvent({ kind: 'step', step, steps, loss });
          await yieldToEvents();
        },
        onBaseline: (measure) => onEvent({ kind: 'baseline', measure }),
        onEpoch: (report) => onEvent({ kind: 'epoch', report }),
      },
    );
    signal?.throwIfAborted();
    phase('storing', 'the model');
    const text = formatModelFile(model);
    const name = request.name?.trim() || defaultModelName(collection.name, request);
    const { key } = modelRef(text, name, model);
    await putAugmentModel(this.options.db, { key, name, text, collection: collection.name, split: request.split, analyzer: request.analyzer, encoder: request.encoder });
    return { key, name, training: model.training, trainMs: result.trainMs };
  }
}

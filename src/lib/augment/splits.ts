/**
 * Which judged queries train a model, which measure its epochs, and which it may be evaluated on. A collection
 * with one judged split trains on a seeded share of it and is evaluated on the rest, drawn again from the
 * model file's seed, so the CLI and the page refuse the same queries.
 */
import type { Qrels } from '../types.ts';
import type { AugmentModel, HeldOutSource } from './model-file.ts';
import { SeededRandom } from './rng.ts';
import { trainAugmenter, type JudgedQueries, type TrainData, type TrainHooks, type TrainResult, type TrainSettings } from './train.ts';

/** A seeded share of `all`'s queries held out (their judgments with them), the rest to train on. */
export function holdOutShare(all: JudgedQueries, share: number, seed: number): { train: JudgedQueries; heldOut: JudgedQueries } {
  const shuffled = new SeededRandom(seed).shuffled(all.queries);
  const count = Math.round(share * shuffled.length);
  const part = (queries: typeof shuffled): JudgedQueries => ({ queries, qrels: new Map(queries.map((q) => [q.id, all.qrels.get(q.id)!])) as Qrels });
  return { heldOut: part(shuffled.slice(0, count)), train: part(shuffled.slice(count)) };
}

/**
 * The queries of `split` a model may be evaluated on: all of them, or — when the model trained on this
 * split with a seeded share held out — that held-out share only. Any other use of the training split (or of
 * the dev split that measured its epochs) throws, with a message saying which split to use.
 */
export function evaluableQueries(model: AugmentModel, collection: string, split: string, all: JudgedQueries): { queries: JudgedQueries; note?: string } {
  const { training } = model;
  if (training.collection !== collection) return { queries: all };
  if (training.heldOut.kind === 'split' && training.heldOut.split === split) throw new Error(`the model's epochs were measured on ${collection} ${split}: evaluate it on another split`);
  if (training.split !== split) return { queries: all };
  if (training.heldOut.kind !== 'share') throw new Error(`the model was trained on ${collection} ${split}: evaluate it on another split`);
  const { heldOut } = holdOutShare(all, training.heldOut.share, training.settings.seed);
  return { queries: heldOut, note: `the ${heldOut.queries.length} queries of ${split} held out from training (share ${training.heldOut.share}, seed ${training.settings.seed})` };
}

export interface JudgedSplits {
  collection: string;
  /** The split that trains, and its judged queries. */
  split: string;
  judged: JudgedQueries;
  /** A judged split measured after each epoch; absent: `heldOutShare` of the training split (0: no measure). */
  dev?: { split: string; judged: JudgedQueries };
  heldOutShare: number;
}

/** Trains on `splits` over `data`'s index and encoder, and returns the model with the record of its training. */
export async function trainOnSplits(
  splits: JudgedSplits,
  data: Omit<TrainData, 'train' | 'heldOut'>,
  settings: TrainSettings,
  hooks: TrainHooks = {},
): Promise<{ model: AugmentModel; result: TrainResult }> {
  const { judged, dev } = splits;
  if (judged.queries.length === 0) throw new Error(`split "${splits.split}" judges no query of ${splits.collection}`);
  const parts: { train: JudgedQueries; heldOut?: JudgedQueries } =
    dev !== undefined ? { train: judged, heldOut: dev.judged } : splits.heldOutShare > 0 ? holdOutShare(judged, splits.heldOutShare, settings.seed) : { train: judged };
  const heldOut: HeldOutSource =
    dev !== undefined
      ? { kind: 'split', split: dev.split, queries: dev.judged.queries.length }
      : parts.heldOut !== undefined
        ? { kind: 'share', share: splits.heldOutShare, queries: parts.heldOut.queries.length }
        : { kind: 'none' };
  const result = await trainAugmenter({ ...data, train: parts.train, ...(parts.heldOut === undefined ? {} : { heldOut: parts.heldOut }) }, settings, hooks);
  const model: AugmentModel = {
    bm25: data.bm25,
    encoderModel: data.encoder.id,
    ...(data.encoder.dtype === undefined ? {} : { encoderDtype: data.encoder.dtype }),
    params: result.params,
    training: {
      collection: splits.collection,
      split: splits.split,
      queries: result.examples,
      heldOut,
      settings,
      history: result.history.map(({ ms: _ms, ...epoch }) => epoch),
      ...(result.baseline === undefined ? {} : { baseline: result.baseline }),
    },
  };
  return { model, result };
}

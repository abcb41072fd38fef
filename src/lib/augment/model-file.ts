/**
 * The model file: JSON naming what a model depends on (the analyzer and BM25 parameters of the index it was
 * trained over, the encoder, the collection and split that trained it, the seed and hyper-parameters), its
 * per-epoch history, and its weights as base64 float32. It holds no timing, so one seed gives one file.
 */
import type { EmbeddingDtype } from '../dense/registry.ts';
import { fnv1a } from '../data/fingerprint.ts';
import type { AugmenterRef, Bm25Settings } from '../retrievers/config.ts';
import { base64ToFloats, floatsToBase64 } from './base64.ts';
import type { AugmentParams } from './model.ts';
import type { EpochReport, HeldOutMeasure, TrainSettings } from './train.ts';

export const AUGMENT_FORMAT = 'rp-bm25-query-augmentation';
export const AUGMENT_FORMAT_VERSION = 1;

/** Where a model's held-out measure came from. */
export type HeldOutSource = { kind: 'split'; split: string; queries: number } | { kind: 'share'; share: number; queries: number } | { kind: 'none' };

export interface AugmentTraining {
  collection: string;
  split: string;
  /** Training queries with a judged relevant document. */
  queries: number;
  heldOut: HeldOutSource;
  settings: TrainSettings;
  history: Array<Omit<EpochReport, 'ms'>>;
  baseline?: HeldOutMeasure;
}

export interface AugmentModelFile {
  format: typeof AUGMENT_FORMAT;
  version: typeof AUGMENT_FORMAT_VERSION;
  bm25: Bm25Settings;
  /** `dtype`: a transformer encoder's weights (absent: a static table). */
  encoder: { model: string; dim: number; scale: number; trainedRows: boolean; dtype?: EmbeddingDtype };
  training: AugmentTraining;
  terms: string[];
  weights: { W: string; u: string; center?: string; rows?: { ids: number[]; values: string } };
}

export interface AugmentModel {
  bm25: Bm25Settings;
  encoderModel: string;
  /** A transformer encoder's weights (q8, fp32…); absent for a static table. */
  encoderDtype?: EmbeddingDtype;
  training: AugmentTraining;
  params: AugmentParams;
}

export function modelFile(model: AugmentModel): AugmentModelFile {
  const { params } = model;
  return {
    format: AUGMENT_FORMAT,
    version: AUGMENT_FORMAT_VERSION,
    bm25: model.bm25,
    encoder: {
      model: model.encoderModel,
      dim: params.encoderDim,
      scale: params.scale,
      trainedRows: params.rows !== undefined,
      ...(model.encoderDtype === undefined ? {} : { dtype: model.encoderDtype }),
    },
    training: model.training,
    terms: [...params.terms],
    weights: {
      W: floatsToBase64(params.W),
      u: floatsToBase64(params.u),
      ...(params.center === undefined ? {} : { center: floatsToBase64(params.center) }),
      ...(params.rows === undefined ? {} : { rows: { ids: [...params.rows.ids], values: floatsToBase64(params.rows.values) } }),
    },
  };
}

export function formatModelFile(model: AugmentModel): string {
  return `${JSON.stringify(modelFile(model))}\n`;
}

function check(condition: boolean, where: string, what: string): asserts condition {
  if (!condition) throw new Error(`${where}: ${what}`);
}

/** Reads a model file; a message names what is wrong with it. */
export function parseModelFile(text: string, where = 'model file'): AugmentModel {
  let file: AugmentModelFile;
  try {
    file = JSON.parse(text) as AugmentModelFile;
  } catch (error) {
    throw new Error(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  check(file?.format === AUGMENT_FORMAT, where, `not a query-augmentation model (format is not "${AUGMENT_FORMAT}")`);
  check(file.version === AUGMENT_FORMAT_VERSION, where, `version ${String(file.version)} is not ${AUGMENT_FORMAT_VERSION}`);
  check(Array.isArray(file.terms) && typeof file.encoder?.dim === 'number', where, 'needs terms and an encoder');
  const D = file.encoder.dim + 1;
  const W = base64ToFloats(file.weights.W, `${where}: weights.W`);
  const u = base64ToFloats(file.weights.u, `${where}: weights.u`);
  check(W.length === file.terms.length * D, where, `weights.W holds ${W.length} values, expected ${file.terms.length} × ${D}`);
  check(u.length === D, where, `weights.u holds ${u.length} values, expected ${D}`);
  const params: AugmentParams = { encoderDim: file.encoder.dim, terms: file.terms, W, u, scale: file.encoder.scale };
  if (file.weights.center !== undefined) {
    params.center = base64ToFloats(file.weights.center, `${where}: weights.center`);
    check(params.center.length === file.encoder.dim, where, `weights.center holds ${params.center.length} values, expected ${file.encoder.dim}`);
  }
  if (file.weights.rows !== undefined) {
    const values = base64ToFloats(file.weights.rows.values, `${where}: weights.rows`);
    check(values.length === file.weights.rows.ids.length * file.encoder.dim, where, 'weights.rows does not match its ids');
    params.rows = { ids: Int32Array.from(file.weights.rows.ids), values };
  }
  return { bm25: file.bm25, encoderModel: file.encoder.model, ...(file.encoder.dtype === undefined ? {} : { encoderDtype: file.encoder.dtype }), training: file.training, params };
}

/** The reference a column holds to a model file's text: its key is the text's fingerprint, the same everywhere. */
export function modelRef(text: string, name: string, model: AugmentModel): AugmenterRef {
  return { key: fnv1a(text), name, collection: model.training.collection, split: model.training.split };
}

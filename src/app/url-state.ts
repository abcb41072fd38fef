/**
 * What the address bar holds, so that a link reproduces the screen: the view, the open collection and
 * split, the Explore columns with all their settings, and the query (a stored query's id, its edited text,
 * or typed text). Pure functions (no DOM): url-sync.svelte.ts applies them to the page and history.
 *
 * Format — readable, one parameter per concern, columns in order:
 *
 *   ?view=explore&collection=starter&split=test&qid=q02
 *     &col=bm25;k1=0.9;b=0.4;an=english
 *     &col=dense;m=local/glove-100d-sif;dt=fp32;s=exact
 *     &col=ledr;K=1000;k1=0.9;b=0.4;an=english;m=local/glove-100d-sif;dt=fp32;s=exact
 *     &col=rm3;ft=10;fd=10;w=0.5;k1=0.9;b=0.4;an=wordpiece
 *     &col=rerank;d=100;m=local/tiny-cross-encoder;dt=fp32;fs=bm25%3Bk1%3D0.9%3Bb%3D0.4%3Ban%3Denglish
 *
 * A Re-rank column's first stage (`fs`) is a whole column value of its own, encoded as one field value.
 * `q=` carries typed text, or with `qid=` the edited text of a stored query. A BM25 column whose query
 * terms were edited in its terms panel carries them as `qt=` in canonical weighted syntax
 * (`col=bm25;k1=0.9;b=0.4;an=english;qt=%2Bbread^2+%2Bstale`); they are not settings (not part of
 * `settingsKey`), since they belong to the one query on screen. A column is its kind and
 * `key=value` fields separated by `;`; each field value is percent-encoded on its own (so a model id or run
 * name may hold `;`, `=` or `&`). Fields equal to their default are still written, except the device
 * (`dev`, default auto) and the HNSW build settings (`M`, `efc`, `ef`) when they are the defaults: a link
 * states the settings that make its numbers. Parameters this module does not know are kept as they are
 * (other views may add their own).
 */
import { bm25AnalyzerNames, isBm25AnalyzerName } from '../lib/analysis/analyzers.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import {
  DEFAULT_BM25,
  DEFAULT_DENSE,
  DEFAULT_HNSW,
  type Bm25Settings,
  DEFAULT_RERANK_DEPTH,
  defaultRerankSettings,
  type DenseSettings,
  type DeviceChoice,
  type FirstStageConfig,
  type HnswSettings,
  type RerankSettings,
  type RetrieverConfig,
} from '../lib/retrievers/config.ts';
import { settingsKey } from '../lib/settings-key.ts';
import { ANSERINI_RM3_PARAMS } from '../lib/prf/rm3.ts';
import { TERRIER_BO1_PARAMS } from '../lib/prf/bo1.ts';
import type { View } from './app-state.svelte.ts';

export const URL_VIEWS: readonly View[] = ['explore', 'evaluate', 'datasets', 'learn'];

/** The query of the Explore view: a stored query (id), optionally with edited text, or typed text alone. */
export interface UrlQuery {
  id?: string;
  text?: string;
}

export interface UrlState {
  view: View;
  collection: string | null;
  split: string | null;
  /** null: the address has no columns (the view keeps or picks its defaults). */
  columns: RetrieverConfig[] | null;
  query: UrlQuery;
  /** Edited query terms of the columns, aligned with `columns` (undefined: none; '' : every term dropped). */
  termEdits?: Array<string | undefined>;
  /** The split and measure that tuned each column (Tune), aligned with `columns` (undefined: not tuned). */
  tuned?: Array<TunedBy | undefined>;
}

/** What a tuned column's header says of it: the split that tuned it and the measure it was tuned for. */
export interface TunedBy {
  split: string;
  metric: string;
}

export interface DecodedUrl {
  state: UrlState;
  /** Parameters not handled here, raw (`key=value` as written), in their order. */
  others: string[];
  /** What could not be understood (an unknown column kind, a value out of range…), for a notice. */
  problems: string[];
}

const KNOWN_KEYS = new Set(['view', 'collection', 'split', 'qid', 'q', 'col']);
const DEVICES: readonly DeviceChoice[] = ['auto', 'webgpu', 'wasm'];
const DTYPES: readonly EmbeddingDtype[] = ['fp32', 'fp16', 'q8'];
const NORMALIZATIONS = ['min-max', 'z-score'] as const;

/** The string with lone UTF-16 surrogates replaced by U+FFFD (encodeURIComponent throws on them). */
export function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Percent-encodes a value, keeping `/ : @ ,` readable and writing spaces as `+`. */
export function encodeComponent(value: string): string {
  return encodeURIComponent(wellFormed(value))
    .replace(/%20/g, '+')
    .replace(/%2F/g, '/')
    .replace(/%3A/g, ':')
    .replace(/%40/g, '@')
    .replace(/%2C/g, ',');
}

/** Inverse of encodeComponent (also reads what URLSearchParams writes). Throws URIError on a bad escape. */
export function decodeComponent(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

// ---- Columns ----

type Fields = Array<[string, string]>;

function number(value: number): string {
  return String(value);
}

function bm25Fields(settings: Bm25Settings): Fields {
  return [
    ['k1', number(settings.k1)],
    ['b', number(settings.b)],
    ['an', settings.analyzer],
  ];
}

function sameHnsw(a: HnswSettings, b: HnswSettings): boolean {
  return a.M === b.M && a.efConstruction === b.efConstruction && a.efSearch === b.efSearch;
}

function denseFields(settings: DenseSettings): Fields {
  const fields: Fields = [
    ['m', settings.model],
    ['dt', settings.dtype],
    ['s', settings.search],
  ];
  if (settings.device !== 'auto') fields.push(['dev', settings.device]);
  if (settings.search === 'hnsw' || !sameHnsw(settings.hnsw, DEFAULT_HNSW)) {
    fields.push(['M', number(settings.hnsw.M)], ['efc', number(settings.hnsw.efConstruction)], ['ef', number(settings.hnsw.efSearch)]);
  }
  return fields;
}

function rerankFields(settings: RerankSettings): Fields {
  const fields: Fields = [
    ['m', settings.model],
    ['dt', settings.dtype],
  ];
  if (settings.device !== 'auto') fields.push(['dev', settings.device]);
  return fields;
}

function retrieverFields(retriever: RetrieverConfig): Fields {
  switch (retriever.kind) {
    case 'bm25':
      return bm25Fields(retriever.bm25);
    case 'rm3':
      return [['ft', number(retriever.fbTerms)], ['fd', number(retriever.fbDocs)], ['w', number(retriever.originalQueryWeight)], ...bm25Fields(retriever.bm25)];
    case 'bo1':
      return [['ft', number(retriever.fbTerms)], ['fd', number(retriever.fbDocs)], ...bm25Fields(retriever.bm25)];
    case 'rerank':
      return [['d', number(retriever.depth)], ...rerankFields(retriever.rerank), ['fs', encodeRetriever(retriever.firstStage)]];
    case 'dense':
      return denseFields(retriever.dense);
    case 'ledr':
      return [['K', number(retriever.k)], ...bm25Fields(retriever.bm25), ...denseFields(retriever.dense)];
    case 'rrf':
      return [['k', number(retriever.k)], ...bm25Fields(retriever.bm25), ...denseFields(retriever.dense)];
    case 'convex':
      return [['a', number(retriever.alpha)], ['norm', retriever.normalization], ...bm25Fields(retriever.bm25), ...denseFields(retriever.dense)];
    case 'run':
      return [
        ['key', retriever.runKey],
        ['name', retriever.name],
      ];
    case 'augmented':
      return [['key', retriever.augmenter.key], ['name', retriever.augmenter.name], ['tc', retriever.augmenter.collection], ['ts', retriever.augmenter.split], ...bm25Fields(retriever.bm25)];
  }
}

/** One column as its `col=` value (already encoded for the address). */
export function encodeRetriever(retriever: RetrieverConfig): string {
  return [retriever.kind, ...retrieverFields(retriever).map(([key, value]) => `${key}=${encodeComponent(value)}`)].join(';');
}

/** The `qt=` field of a raw (still encoded) `col=` value: the column's edited query terms, if any. */
export function decodeTermEdit(raw: string): string | undefined {
  for (const piece of raw.split(';').slice(1)) {
    if (!piece.startsWith('qt=')) continue;
    try {
      return decodeComponent(piece.slice(3));
    } catch {
      throw new UrlStateError('the edited query terms (qt) are not properly encoded');
    }
  }
  return undefined;
}

/** The `tuned=` field of a raw `col=` value (`split,measure`): which split tuned the column, if any. */
function decodeTuned(raw: string): TunedBy | undefined {
  for (const piece of raw.split(';').slice(1)) {
    if (!piece.startsWith('tuned=')) continue;
    let value: string;
    try {
      value = decodeComponent(piece.slice(6));
    } catch {
      throw new UrlStateError('the tuning split (tuned) is not properly encoded');
    }
    const comma = value.indexOf(',');
    if (comma <= 0 || comma === value.length - 1) throw new UrlStateError('tuned must be "split,measure"');
    return { split: value.slice(0, comma), metric: value.slice(comma + 1) };
  }
  return undefined;
}

/** A malformed column; the message names the field. */
export class UrlStateError extends Error {
  override readonly name = 'UrlStateError';
}

class FieldReader {
  constructor(
    private readonly fields: ReadonlyMap<string, string>,
    private readonly kind: string,
  ) {}

  string(key: string, fallback: string | undefined): string {
    const value = this.fields.get(key) ?? fallback;
    if (value === undefined) throw new UrlStateError(`${this.kind} column without "${key}"`);
    return value;
  }

  number(key: string, fallback: number, check: (x: number) => boolean, what: string): number {
    const raw = this.fields.get(key);
    if (raw === undefined) return fallback;
    const value = raw.trim() === '' ? Number.NaN : Number(raw);
    if (!Number.isFinite(value) || !check(value)) throw new UrlStateError(`${this.kind} column: ${key}=${raw} is not ${what}`);
    return value;
  }

  choice<T extends string>(key: string, fallback: T, choices: readonly T[]): T {
    const raw = this.fields.get(key);
    if (raw === undefined) return fallback;
    if (!(choices as readonly string[]).includes(raw)) throw new UrlStateError(`${this.kind} column: ${key}=${raw} is not one of ${choices.join(', ')}`);
    return raw as T;
  }
}

const isCount = (x: number) => Number.isInteger(x) && x >= 1;

function readBm25(r: FieldReader): Bm25Settings {
  const analyzer = r.choice('an', DEFAULT_BM25.analyzer, bm25AnalyzerNames);
  if (!isBm25AnalyzerName(analyzer)) throw new UrlStateError(`unknown analyzer ${analyzer}`);
  return {
    k1: r.number('k1', DEFAULT_BM25.k1, (x) => x >= 0, 'a number ≥ 0'),
    b: r.number('b', DEFAULT_BM25.b, (x) => x >= 0 && x <= 1, 'between 0 and 1'),
    analyzer,
  };
}

function readDense(r: FieldReader): DenseSettings {
  const model = r.string('m', DEFAULT_DENSE.model).trim();
  if (model === '') throw new UrlStateError('dense column with an empty model id');
  return {
    model,
    device: r.choice('dev', DEFAULT_DENSE.device, DEVICES),
    dtype: r.choice('dt', DEFAULT_DENSE.dtype, DTYPES),
    search: r.choice('s', DEFAULT_DENSE.search, ['exact', 'hnsw'] as const),
    hnsw: {
      M: r.number('M', DEFAULT_HNSW.M, isCount, 'a whole number ≥ 1'),
      efConstruction: r.number('efc', DEFAULT_HNSW.efConstruction, isCount, 'a whole number ≥ 1'),
      efSearch: r.number('ef', DEFAULT_HNSW.efSearch, isCount, 'a whole number ≥ 1'),
    },
  };
}

const DEFAULT_RERANK = defaultRerankSettings();

function readRerank(r: FieldReader): RerankSettings {
  const model = r.string('m', DEFAULT_RERANK.model).trim();
  if (model === '') throw new UrlStateError('rerank column with an empty model id');
  return {
    model,
    dtype: r.choice('dt', defaultRerankSettings(model).dtype, DTYPES),
    device: r.choice('dev', 'auto', DEVICES),
  };
}

/** A Re-rank column's first stage: `fs` holds a column value (BM25 when absent); a Re-rank in it is refused. */
function readFirstStage(r: FieldReader): FirstStageConfig {
  const raw = r.string('fs', 'bm25');
  let inner: RetrieverConfig;
  try {
    inner = decodeRetriever(raw);
  } catch (error) {
    throw new UrlStateError(`rerank column: its first stage: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (inner.kind === 'rerank') throw new UrlStateError('rerank column: its first stage cannot be another re-ranking');
  return inner;
}

const isFraction = (x: number) => x >= 0 && x <= 1;

/** Parses a raw (still encoded) `col=` value. Throws UrlStateError. */
export function decodeRetriever(raw: string): RetrieverConfig {
  const [kind = '', ...pieces] = raw.split(';');
  const fields = new Map<string, string>();
  for (const piece of pieces) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const key = eq < 0 ? piece : piece.slice(0, eq);
    let value: string;
    try {
      value = eq < 0 ? '' : decodeComponent(piece.slice(eq + 1));
    } catch {
      throw new UrlStateError(`${kind} column: the value of "${key}" is not properly encoded`);
    }
    fields.set(key, value);
  }
  const r = new FieldReader(fields, kind);
  switch (kind) {
    case 'bm25':
      return { kind, bm25: readBm25(r) };
    case 'dense':
      return { kind, dense: readDense(r) };
    case 'ledr':
      return { kind, k: r.number('K', 1000, isCount, 'a whole number ≥ 1'), bm25: readBm25(r), dense: readDense(r) };
    case 'rrf':
      return { kind, k: r.number('k', 60, (x) => x >= 0, 'a number ≥ 0'), bm25: readBm25(r), dense: readDense(r) };
    case 'convex':
      return {
        kind,
        alpha: r.number('a', 0.5, (x) => x >= 0 && x <= 1, 'between 0 and 1'),
        normalization: r.choice('norm', 'min-max', NORMALIZATIONS),
        bm25: readBm25(r),
        dense: readDense(r),
      };
    case 'run':
      return { kind, runKey: r.string('key', undefined), name: r.string('name', 'run') };
    case 'augmented':
      return {
        kind,
        augmenter: { key: r.string('key', undefined), name: r.string('name', 'model'), collection: r.string('tc', ''), split: r.string('ts', '') },
        bm25: readBm25(r),
      };
    case 'rm3':
      return {
        kind,
        fbTerms: r.number('ft', ANSERINI_RM3_PARAMS.fbTerms, isCount, 'a whole number ≥ 1'),
        fbDocs: r.number('fd', ANSERINI_RM3_PARAMS.fbDocs, isCount, 'a whole number ≥ 1'),
        originalQueryWeight: r.number('w', ANSERINI_RM3_PARAMS.originalQueryWeight, isFraction, 'between 0 and 1'),
        bm25: readBm25(r),
      };
    case 'bo1':
      return {
        kind,
        fbTerms: r.number('ft', TERRIER_BO1_PARAMS.fbTerms, isCount, 'a whole number ≥ 1'),
        fbDocs: r.number('fd', TERRIER_BO1_PARAMS.fbDocs, isCount, 'a whole number ≥ 1'),
        bm25: readBm25(r),
      };
    case 'rerank':
      return {
        kind,
        depth: r.number('d', DEFAULT_RERANK_DEPTH, isCount, 'a whole number ≥ 1'),
        rerank: readRerank(r),
        firstStage: readFirstStage(r),
      };
    default:
      throw new UrlStateError(`unknown column kind "${kind}"`);
  }
}

// ---- The whole state ----

/**
 * A `col=` value as this module writes it. An address rewritten by `URLSearchParams` (a script's
 * `url.searchParams.set(…)`) has every `;` and `=` percent-encoded, and each field's value decoded once more:
 * the value is decoded and its fields encoded again. A Re-rank column's first stage (`fs`) takes the fields
 * after it up to the column's own `qt`/`tuned`; a value holding `;` itself cannot be told apart and splits.
 */
function columnValue(raw: string): string {
  if (raw.includes(';') || !/%3B/i.test(raw)) return raw;
  const [kind = '', ...pieces] = decodeComponent(raw).split(';');
  const field = (piece: string) => {
    const eq = piece.indexOf('=');
    return eq < 0 ? piece : `${piece.slice(0, eq)}=${encodeComponent(piece.slice(eq + 1))}`;
  };
  const fields: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (!piece.startsWith('fs=')) {
      fields.push(field(piece));
      continue;
    }
    const end = pieces.findIndex((later, j) => j > i && (later.startsWith('qt=') || later.startsWith('tuned=')));
    const stop = end < 0 ? pieces.length : end;
    fields.push(field(pieces.slice(i, stop).join(';')));
    i = stop - 1;
  }
  return [kind, ...fields].join(';');
}


/** The search part of the address (with its leading `?`), `others` appended as they were. */
export function encodeUrlState(state: UrlState, others: readonly string[] = []): string {
  const parts: string[] = [`view=${state.view}`];
  if (state.collection !== null) parts.push(`collection=${encodeComponent(state.collection)}`);
  if (state.split !== null) parts.push(`split=${encodeComponent(state.split)}`);
  if (state.query.id !== undefined) parts.push(`qid=${encodeComponent(state.query.id)}`);
  if (state.query.text !== undefined) parts.push(`q=${encodeComponent(state.query.text)}`);
  (state.columns ?? []).forEach((column, i) => {
    const edit = state.termEdits?.[i];
    const tuned = state.tuned?.[i];
    const extras = `${edit === undefined ? '' : `;qt=${encodeComponent(edit)}`}${tuned === undefined ? '' : `;tuned=${encodeComponent(`${tuned.split},${tuned.metric}`)}`}`;
    parts.push(`col=${encodeRetriever(column)}${extras}`);
  });
  return `?${[...parts, ...others].join('&')}`;
}

/** Reads an address's search part (with or without `?`). Never throws: problems are listed. */
export function decodeUrlState(search: string): DecodedUrl {
  const state: UrlState = { view: 'explore', collection: null, split: null, columns: null, query: {} };
  const others: string[] = [];
  const problems: string[] = [];
  const columns: RetrieverConfig[] = [];
  const termEdits: Array<string | undefined> = [];
  const tuned: Array<TunedBy | undefined> = [];
  const body = search.startsWith('?') ? search.slice(1) : search;
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    if (!KNOWN_KEYS.has(key)) {
      others.push(part);
      continue;
    }
    if (key === 'col') {
      try {
        const raw = columnValue(rawValue);
        const column = decodeRetriever(raw);
        const edit = column.kind === 'bm25' ? decodeTermEdit(raw) : undefined;
        const tunedBy = decodeTuned(raw);
        columns.push(column);
        termEdits.push(edit);
        tuned.push(tunedBy);
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
      }
      continue;
    }
    let value: string;
    try {
      value = decodeComponent(rawValue);
    } catch {
      problems.push(`the value of "${key}" is not properly encoded`);
      continue;
    }
    switch (key) {
      case 'view':
        if ((URL_VIEWS as readonly string[]).includes(value)) state.view = value as View;
        else problems.push(`unknown view "${value}"`);
        break;
      case 'collection':
        state.collection = value;
        break;
      case 'split':
        state.split = value;
        break;
      case 'qid':
        state.query.id = value;
        break;
      case 'q':
        state.query.text = value;
        break;
    }
  }
  if (columns.length > 0) state.columns = columns;
  if (termEdits.some((edit) => edit !== undefined)) state.termEdits = termEdits;
  if (tuned.some((by) => by !== undefined)) state.tuned = tuned;
  return { state, others, problems };
}

/** Whether going from `before` to `after` is a step the Back button should undo. */
export function isNavigation(before: UrlState, after: UrlState): boolean {
  if (before.view !== after.view || before.collection !== after.collection || before.split !== after.split) return true;
  const hadQuery = before.query.id !== undefined || before.query.text !== undefined;
  if (hadQuery && before.query.id !== after.query.id) return true;
  const kinds = (state: UrlState) => (state.columns ?? []).map((c) => c.kind).join(',');
  if (kinds(before) !== kinds(after)) return true;
  // Same kinds in the same order: a moved column shows as changed settings at two places.
  const keys = (state: UrlState) => (state.columns ?? []).map(settingsKey);
  const a = keys(before);
  const b = keys(after);
  const changed = a.filter((key, i) => key !== b[i]).length;
  return changed >= 2 && [...a].sort().join() === [...b].sort().join();
}

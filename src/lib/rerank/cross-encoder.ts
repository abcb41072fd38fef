/**
 * A cross-encoder scorer over transformers.js: `AutoTokenizer` + `AutoModelForSequenceClassification` (the
 * text-classification pipeline takes no pairs). The same code runs in a worker (onnxruntime-web, WebGPU or
 * WASM) and in Node (onnxruntime-node) for the CLI, tests and benchmarks; models load from where
 * configureModelSource (src/lib/dense/model-source.ts) pointed transformers.js, and a failed load is one
 * message naming the file and what to do, as for embedding models.
 *
 * score(query, docs): the pairs not in the cache are encoded (pair-encoding.ts: query kept, document cut to
 * the model's length), sorted longest first so a batch pads little, and run `batchSize` at a time; progress
 * after each batch, the AbortSignal checked between batches. Calls run one after the other on the session
 * (SessionQueue).
 */
import { AutoConfig, AutoModelForSequenceClassification, AutoTokenizer, PretrainedConfig, Tensor } from '@huggingface/transformers';
import { progressAt, type EmbedProgress } from '../dense/batching.ts';
import { ModelLoadError, SessionQueue, watchingFetches, type EmbeddingDevice } from '../dense/embedder.ts';
import { classifyModelLoadFailure, type FailedRequest } from '../dense/model-source.ts';
import { floatValues } from '../dense/pooling.ts';
import type { EmbeddingDtype } from '../dense/registry.ts';
import { padBatch, type PaddedBatch } from '../dense/token-ids.ts';
import { encodePair, pairTemplateOf, type EncodedPair, type PairTemplate, type PairTokenizer } from './pair-encoding.ts';
import { PairScoreCache } from './pair-score-cache.ts';
import type { RerankerSpec } from './registry.ts';

/** One document to score against the query. */
export interface PairDoc {
  id: string;
  text: string;
}

/** Progress of one score call: pairs done (cached ones count at once) of all pairs. */
export interface RerankProgress extends EmbedProgress {
  /** Pairs answered from the cache. */
  cached: number;
}

export interface ScoreOptions {
  /** Pairs per model call (default 16). */
  batchSize?: number;
  onProgress?: (progress: RerankProgress) => void;
  signal?: AbortSignal;
}

/** Scores (query, document) pairs; the re-ranker's view of a cross-encoder (tests use fakes). */
export interface PairScorer {
  /** Names the weights and pair length: the cache key of a score. */
  readonly modelKey: string;
  /** One score per document, in the order given. */
  score(query: string, docs: readonly PairDoc[], options?: ScoreOptions): Promise<Float32Array>;
}

/** Runs one padded batch: one logit per row. */
type PairBatchRunner = (batch: PaddedBatch) => Promise<Float32Array>;

export interface CrossEncoder extends PairScorer {
  readonly spec: RerankerSpec;
  readonly device: EmbeddingDevice;
  readonly dtype: EmbeddingDtype;
  /** Tokens per pair. */
  readonly maxLength: number;
  /** The pair as the model reads it (ids, segment ids, what was cut): what tests and the hit detail show. */
  encode(query: string, docText: string): EncodedPair;
  dispose(): Promise<void>;
}

const DEFAULT_RERANK_BATCH = 16;

/** The parts of a cross-encoder below the model: tokenization, template, batches, cache. */
interface PairScoringParts {
  modelKey: string;
  tokenizer: PairTokenizer;
  template: PairTemplate;
  padId: number;
  maxLength: number;
  run: PairBatchRunner;
  cache?: PairScoreCache;
}

/**
 * The scoring loop, separate from the model so tests drive it with a fake runner. Returns a scorer whose
 * calls are serialized (one session, one inference at a time).
 */
function pairScorer(parts: PairScoringParts): PairScorer & { encode(query: string, docText: string): EncodedPair } {
  const queue = new SessionQueue();
  const encode = (query: string, docText: string) => encodePair(parts.template, parts.tokenizer.ids(query), parts.tokenizer.ids(docText), parts.maxLength);
  const scoreAll = async (query: string, docs: readonly PairDoc[], options: ScoreOptions): Promise<Float32Array> => {
    const scores = new Float32Array(docs.length);
    const todo: number[] = [];
    docs.forEach((doc, i) => {
      const cached = parts.cache?.get(parts.modelKey, query, doc.id);
      if (cached === undefined) todo.push(i);
      else scores[i] = cached;
    });
    const cached = docs.length - todo.length;
    const started = performance.now();
    const report = (done: number, batchSize: number) =>
      options.onProgress?.({ ...progressAt(done, docs.length, (performance.now() - started) / 1000, batchSize), cached });
    report(cached, 0);
    if (todo.length === 0) return scores;
    options.signal?.throwIfAborted();
    const queryIds = parts.tokenizer.ids(query);
    const encoded = todo.map((i) => encodePair(parts.template, queryIds, parts.tokenizer.ids(docs[i]!.text), parts.maxLength));
    // Longest first: a batch's rows then have similar lengths, so little padding is computed.
    const order = todo.map((_, k) => k).sort((a, b) => encoded[b]!.ids.length - encoded[a]!.ids.length || a - b);
    const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_RERANK_BATCH));
    let done = cached;
    for (let from = 0; from < order.length; from += batchSize) {
      options.signal?.throwIfAborted();
      const rows = order.slice(from, from + batchSize);
      const logits = await parts.run(padBatch(rows.map((k) => encoded[k]!), parts.padId));
      if (logits.length !== rows.length) throw new Error(`${parts.modelKey}: expected ${rows.length} scores, got ${logits.length}`);
      rows.forEach((k, r) => {
        const docIndex = todo[k]!;
        scores[docIndex] = logits[r]!;
        parts.cache?.set(parts.modelKey, query, docs[docIndex]!.id, logits[r]!);
      });
      done += rows.length;
      report(done, batchSize);
    }
    return scores;
  };
  return {
    modelKey: parts.modelKey,
    encode,
    score: (query, docs, options = {}) => queue.run(() => scoreAll(query, docs, options), options.signal),
  };
}

/** transformers.js's tokenizer as a PairTokenizer. */
interface HfTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
  (text: string, options: { text_pair: string; return_tensor: false }): { input_ids: number[]; token_type_ids?: number[] };
  pad_token_id?: number;
  model_max_length?: number;
}

function pairTokenizerOf(tokenizer: HfTokenizer): PairTokenizer {
  return {
    ids: (text) => tokenizer.encode(text, { add_special_tokens: false }),
    pair(first, second) {
      const encoded = tokenizer(first, { text_pair: second, return_tensor: false });
      return { ids: encoded.input_ids, typeIds: encoded.token_type_ids ?? encoded.input_ids.map(() => 0) };
    },
  };
}

/** The logit of each row: a one-label head's only logit, or the last label's (the "relevant" class of two); fp16 logits as values. */
function logitsOf(tensor: Tensor, rows: number): Float32Array {
  const [batch, labels] = tensor.dims as [number, number];
  if (tensor.dims.length !== 2 || batch !== rows || labels < 1) throw new Error(`expected logits [${rows}, labels], got [${tensor.dims.join(', ')}]`);
  const data = floatValues(tensor);
  const out = new Float32Array(rows);
  for (let r = 0; r < rows; r++) out[r] = data[r * labels + labels - 1]!;
  return out;
}

type ProgressCallback = NonNullable<NonNullable<Parameters<typeof AutoConfig.from_pretrained>[1]>['progress_callback']>;

/**
 * The model's config.json, with the registry's model type where the file names none (jinaai's re-ranker:
 * without one transformers.js's auto class cannot pick the model class and throws "Unsupported model type").
 */
async function modelConfig(spec: RerankerSpec, progress_callback: ProgressCallback | undefined): Promise<PretrainedConfig> {
  const config = await AutoConfig.from_pretrained(spec.id, progress_callback ? { progress_callback } : {});
  if (config.model_type) return config;
  if (!spec.modelType) throw new Error(`${spec.id}: its config.json names no model_type; give its registry entry a modelType (e.g. 'xlm-roberta')`);
  // A new config, so transformers.js derives its normalized fields from the model type too.
  return new PretrainedConfig({ ...config, model_type: spec.modelType });
}

export interface CrossEncoderOptions {
  spec: RerankerSpec;
  device: Exclude<EmbeddingDevice, 'cpu-lookup'>;
  dtype: EmbeddingDtype;
  /** Tokens per pair; default the spec's, else the model's (see RerankerSpec.maxLength). */
  maxLength?: number;
  /** A shared cache; default a new one per cross-encoder; false for none (benchmarks). */
  cache?: PairScoreCache | false;
  onDownload?: (event: { file: string; loaded: number; total: number }) => void;
}

/** The model's pair length: the spec's, else min(max_position_embeddings, tokenizer model_max_length), else 512. */
function pairLengthOf(specLength: number, config: { max_position_embeddings?: number }, tokenizerLength: number | undefined): number {
  if (specLength > 0) return specLength;
  const limits = [config.max_position_embeddings, tokenizerLength].filter((n): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0);
  return limits.length > 0 ? Math.min(...limits) : 512;
}

/**
 * Loads a cross-encoder from where configureModelSource pointed transformers.js. A failure is a
 * ModelLoadError whose message names the model, the file or URL, and what to do.
 */
export async function loadCrossEncoder(options: CrossEncoderOptions): Promise<CrossEncoder> {
  const { spec, device, dtype } = options;
  if (!spec.dtypes.includes(dtype)) throw new Error(`${spec.id} has no ${dtype} weights (has ${spec.dtypes.join(', ')})`);
  const progress_callback = options.onDownload
    ? (event: { status: string; file?: string; loaded?: number; total?: number }) => {
        if (event.status === 'progress' && event.file) options.onDownload!({ file: event.file, loaded: event.loaded ?? 0, total: event.total ?? 0 });
      }
    : undefined;
  const failed: FailedRequest[] = [];
  let tokenizer: HfTokenizer;
  let model: Awaited<ReturnType<typeof AutoModelForSequenceClassification.from_pretrained>>;
  try {
    [tokenizer, model] = await watchingFetches(
      () =>
        Promise.all([
          AutoTokenizer.from_pretrained(spec.id, { progress_callback }) as unknown as Promise<HfTokenizer>,
          modelConfig(spec, progress_callback).then((config) => AutoModelForSequenceClassification.from_pretrained(spec.id, { config, device, dtype, progress_callback })),
        ]),
      failed,
    );
  } catch (error) {
    const { kind, message } = classifyModelLoadFailure(spec, dtype, error, failed);
    throw new ModelLoadError(message, kind, { cause: error });
  }
  const pairs = pairTokenizerOf(tokenizer);
  const template = pairTemplateOf(pairs);
  const config = model.config as { max_position_embeddings?: number };
  const maxLength = options.maxLength ?? pairLengthOf(spec.maxLength, config, tokenizer.model_max_length);
  // Models without token_type_ids (XLM-R) are given only the inputs their session takes.
  const sessionInputs = (model as unknown as { sessions?: { model?: { inputNames?: string[] } } }).sessions?.model?.inputNames;
  const wantsTypes = sessionInputs === undefined || sessionInputs.includes('token_type_ids');
  const run: PairBatchRunner = async (batch) => {
    const dims = [batch.rows, batch.width];
    const inputs: Record<string, Tensor> = {
      input_ids: new Tensor('int64', batch.inputIds, dims),
      attention_mask: new Tensor('int64', batch.attentionMask, dims),
    };
    if (wantsTypes) inputs.token_type_ids = new Tensor('int64', batch.tokenTypeIds, dims);
    const output = (await model(inputs)) as { logits: Tensor };
    const logits = logitsOf(output.logits, batch.rows);
    output.logits.dispose?.();
    return logits;
  };
  const cache = options.cache === false ? undefined : (options.cache ?? new PairScoreCache());
  const scorer = pairScorer({
    modelKey: `${spec.id}|${dtype}|${maxLength}`,
    tokenizer: pairs,
    template,
    padId: tokenizer.pad_token_id ?? 0,
    maxLength,
    run,
    cache,
  });
  return {
    ...scorer,
    spec,
    device,
    dtype,
    maxLength,
    // Queued behind the running call (an empty score call waits its turn): releasing a session under a
    // running inference fails in onnxruntime.
    dispose: () => scorer.score('', []).then(async () => void (await model.dispose())),
  };
}

/**
 * Texts → vectors with transformers.js, following a registry entry. The same code runs in the embedding
 * worker (onnxruntime-web, WebGPU or WASM) and in Node (onnxruntime-node) for the CLI and tests. Static
 * tables (kind `static-table`, static-table.ts) need no runtime: a lookup and an average in TypeScript, on
 * the device `cpu-lookup`.
 *
 * Throughput: texts are embedded longest first in batches whose size adapts (batching.ts), so padding is
 * small and the batch size settles where docs/s stops improving. Each call can report progress and be
 * cancelled with an AbortSignal (checked between batches). Calls on one embedder run one after the other
 * (SessionQueue), never interleaving their batches on the session.
 */
import { AutoModel, AutoTokenizer, Tensor, env, pipeline } from '@huggingface/transformers';
import { BatchSizer, batchWork, lengthOrder, progressAt, type EmbedProgress } from './batching.ts';
import { classifyModelLoadFailure, modelBaseLocation, type FailedRequest, type ModelLoadFailureKind } from './model-source.ts';
import { loadStaticTable, StaticTableEncoder, type ModelFileReader } from './static-table.ts';
import { medianTokenLength, model2vecIds, model2vecText } from './model2vec-tokens.ts';
import { poolOutput, type OutputTensor } from './pooling.ts';
import { readPrefix, readsPrefixes } from './read-prefix.ts';
import { encodeSingle, singleTemplateOf, type SingleTemplate, type SingleTokenizer } from './single-encoding.ts';
import { padBatch, type PaddedBatch } from './token-ids.ts';
import type { EmbeddingDtype, ModelSpec } from './registry.ts';
import { normalizeInPlace, type VectorMatrix } from './vector-matrix.ts';

/**
 * transformers.js device names used here: 'cpu' is onnxruntime-node, 'wasm' and 'webgpu' onnxruntime-web;
 * 'cpu-lookup' is no runtime at all: a static table looked up and averaged in TypeScript.
 */
export type EmbeddingDevice = 'cpu' | 'wasm' | 'webgpu' | 'cpu-lookup';

export interface EmbedderOptions {
  spec: ModelSpec;
  device: EmbeddingDevice;
  dtype: EmbeddingDtype;
  /** Model-file download progress (bytes), forwarded from transformers.js. */
  onDownload?: (event: { file: string; loaded: number; total: number }) => void;
  /**
   * Reads a file of a static-table model by its location (modelBaseLocation + name). Default: env.fetch
   * of transformers.js (the browser, and picked folders through servePickedFolder); the CLI passes a file
   * reader, its models being folders.
   */
  readFile?: ModelFileReader;
}

export interface EmbedOptions {
  onProgress?: (progress: EmbedProgress) => void;
  signal?: AbortSignal;
  /** A fixed batch size, or 'auto' (default) for the adaptive one. */
  batchSize?: number | 'auto';
  /** First batch size of the adaptive sizer (default 16 for transformers, 64 for static models). */
  initialBatchSize?: number;
}

export interface Embedder {
  readonly spec: ModelSpec;
  readonly device: EmbeddingDevice;
  readonly dtype: EmbeddingDtype;
  /** One row per text, in the order given. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<VectorMatrix>;
  /** The naive baseline of the benchmarks: one pipeline call per text, in input order, no batching. */
  embedEach(texts: readonly string[], options?: Pick<EmbedOptions, 'signal'>): Promise<VectorMatrix>;
  dispose(): Promise<void>;
}

/** Runs one batch: texts → row-major vectors [texts.length, dim]. */
export type BatchRunner = (texts: string[]) => Promise<{ data: Float32Array; dim: number }>;

/** The onnxruntime device of a model that needs a session; 'cpu-lookup' runs static tables only. */
function onnxDevice(options: EmbedderOptions): Exclude<EmbeddingDevice, 'cpu-lookup'> {
  if (options.device === 'cpu-lookup') throw new Error(`${options.spec.id} is not a static table: choose WASM, WebGPU or (Node) CPU`);
  return options.device;
}

function downloadCallback(options: EmbedderOptions) {
  const { onDownload } = options;
  if (!onDownload) return undefined;
  return (event: { status: string; file?: string; loaded?: number; total?: number }) => {
    if (event.status === 'progress' && event.file) {
      onDownload({ file: event.file, loaded: event.loaded ?? 0, total: event.total ?? 0 });
    }
  };
}

/**
 * Runs `load` with transformers.js's fetch watched, to name the URLs whose request failed (a network error
 * names none). One model loads at a time per worker or CLI run, so swapping the global fetch is safe.
 */
export async function watchingFetches<T>(load: () => Promise<T>, failed: FailedRequest[]): Promise<T> {
  const previous = env.fetch;
  env.fetch = async (input: string | URL, init?: unknown) => {
    try {
      return await previous(input, init);
    } catch (error) {
      failed.push({ url: String(input), error });
      throw error;
    }
  };
  try {
    return await load();
  } finally {
    env.fetch = previous;
  }
}

function normalizeRowsOf(data: Float32Array, dim: number): void {
  for (let offset = 0; offset < data.length; offset += dim) normalizeInPlace(data.subarray(offset, offset + dim));
}

/** The parsed tokenizer files transformers.js keeps on a tokenizer (not part of its typed API). */
interface TokenizerFiles {
  _tokenizerJSON?: Parameters<typeof readsPrefixes>[0] & { model?: { unk_token?: string } };
  _tokenizerConfig: { model_max_length?: number };
}

/** What the embedder uses of transformers.js's tokenizer. */
export type HfTokenizer = TokenizerFiles & {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
  get_vocab(): Map<string, number>;
  convert_tokens_to_ids(token: string): number | undefined;
  pad_token_id?: number;
};

/** What the tokenizer is given of each text: the prefix that holds the tokens the model reads, where that is safe (read-prefix.ts). */
function prefixReader(tokenizer: TokenizerFiles, maxLength: number): (text: string) => string {
  return readsPrefixes(tokenizer._tokenizerJSON) ? (text) => readPrefix(text, maxLength) : (text) => text;
}

/** transformers.js's tokenizer as single-encoding.ts sees it. */
function singleTokenizerOf(tokenizer: HfTokenizer): SingleTokenizer {
  return {
    ids: (text) => tokenizer.encode(text, { add_special_tokens: false }),
    withSpecialTokens: (text) => tokenizer.encode(text, { add_special_tokens: true }),
  };
}

/** A transformers.js model as the runners call it, with the input names of its session. */
type HfModel = ((inputs: Record<string, Tensor>) => Promise<Record<string, Tensor>>) & {
  sessions?: { model?: { inputNames?: string[] } };
  dispose(): Promise<unknown>;
};

/** The input names of the model's session; undefined when transformers.js no longer keeps them there. */
function sessionInputs(model: HfModel): readonly string[] | undefined {
  return model.sessions?.model?.inputNames;
}

/** The token vectors (or pooled vectors) of a feature-extraction output, by the names transformers.js reads. */
function hiddenStates(outputs: Record<string, Tensor>, id: string): Tensor {
  const tensor = outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings ?? Object.values(outputs)[0];
  if (!tensor) throw new Error(`${id}: the model returned no output`);
  return tensor;
}

/**
 * A transformer (or pooled static graph) loaded by transformers.js's feature-extraction pipeline but run
 * here, on id sequences the caller encoded: the batch is padded and `read` sees the output tensor (token
 * states, or pooled vectors) before it is released. The embedder pools it; the query-augmentation encoder
 * (src/lib/augment/transformer-encoder.ts) reads each token's state.
 */
export interface TransformerSession {
  readonly spec: ModelSpec;
  readonly tokenizer: HfTokenizer;
  /** The special tokens wrapped around one text (single-encoding.ts). */
  readonly template: SingleTemplate;
  run<T>(sequences: readonly (readonly number[])[], read: (hidden: OutputTensor, batch: PaddedBatch) => T): Promise<T>;
  dispose(): Promise<void>;
}

async function openSession(options: EmbedderOptions): Promise<TransformerSession> {
  const { spec } = options;
  const extractor = await pipeline('feature-extraction', spec.id, {
    device: onnxDevice(options),
    dtype: options.dtype,
    progress_callback: downloadCallback(options),
  });
  const tokenizer = extractor.tokenizer as unknown as HfTokenizer;
  const model = extractor.model as unknown as HfModel;
  const inputs = sessionInputs(model);
  const wantsTypes = inputs === undefined || inputs.includes('token_type_ids');
  const queue = new SessionQueue();
  const runBatch = async <T>(sequences: readonly (readonly number[])[], read: (hidden: OutputTensor, batch: PaddedBatch) => T): Promise<T> => {
    const batch = padBatch(sequences.map((ids) => ({ ids })), tokenizer.pad_token_id ?? 0);
    const dims = [batch.rows, batch.width];
    const feeds: Record<string, Tensor> = {
      input_ids: new Tensor('int64', batch.inputIds, dims),
      attention_mask: new Tensor('int64', batch.attentionMask, dims),
    };
    // A single text's segment ids are all 0 (token_type_ids of the first sequence).
    if (wantsTypes) feeds.token_type_ids = new Tensor('int64', batch.tokenTypeIds, dims);
    const outputs = await model(feeds);
    try {
      return read(hiddenStates(outputs, spec.id), batch);
    } finally {
      for (const tensor of Object.values(outputs)) tensor.dispose?.();
    }
  };
  return {
    spec,
    tokenizer,
    template: singleTemplateOf(singleTokenizerOf(tokenizer)),
    run: (sequences, read) => queue.run(() => runBatch(sequences, read)),
    dispose: () => queue.run(async () => void (await extractor.dispose())),
  };
}

/**
 * Opens a transformer's session (Node: onnxruntime-node; page: onnxruntime-web), a load failure named as
 * loadEmbedder names it.
 */
export async function loadTransformerSession(options: EmbedderOptions): Promise<TransformerSession> {
  if (options.spec.kind !== 'transformer') throw new Error(`${options.spec.id} is not a transformer (kind ${options.spec.kind})`);
  return withLoadFailures(options, (failed) => watchingFetches(() => openSession(options), failed));
}

/**
 * Transformer models and pooled static graphs: each text is encoded by encodeSingle (its own tokens cut to
 * leave room for the special tokens), run through the session, and the output pooled by pooling.ts.
 */
async function pipelineRunner(options: EmbedderOptions): Promise<SessionRunner> {
  const { spec } = options;
  const session = await openSession(options);
  const encode = textEncoder(session.tokenizer, spec.maxLength);
  const run: BatchRunner = (texts) =>
    session.run(texts.map(encode), (hidden, batch) => {
      const { data, dim } = poolOutput(hidden, batch.attentionMask, texts.length, spec.pooling);
      // Normalized here: a text whose tokens are all unknown to a static model is a zero vector, not NaN.
      if (spec.normalize) normalizeRowsOf(data, dim);
      return { data, dim };
    });
  return { run, dispose: session.dispose };
}

/**
 * text → the ids the model reads: the tokenizer gets the prefix that holds them (read-prefix.ts), and the
 * registry's maxLength wins over tokenizer_config.json's (all-MiniLM-L6-v2 was trained on 256).
 */
function textEncoder(tokenizer: HfTokenizer, maxLength: number): (text: string) => number[] {
  const single = singleTokenizerOf(tokenizer);
  const template = singleTemplateOf(single);
  const read = prefixReader(tokenizer, maxLength);
  return (text) => encodeSingle(template, single.ids(read(text)), maxLength);
}

/** The model2vec ids of a text (model2vec-tokens.ts), given the tokenizer. */
function model2vecEncoder(tokenizer: HfTokenizer, maxLength: number): (text: string) => number[] {
  const median = medianTokenLength(tokenizer.get_vocab().keys());
  const unkToken = tokenizer._tokenizerJSON?.model?.unk_token;
  const unkId = unkToken === undefined ? undefined : tokenizer.convert_tokens_to_ids(unkToken);
  return (text) => model2vecIds(tokenizer.encode(model2vecText(text, maxLength, median), { add_special_tokens: false }), unkId, maxLength);
}

/**
 * model2vec exports (minishlab/potion-*): the ONNX graph takes all token ids of the batch flattened plus
 * each text's start offset (an EmbeddingBag) and returns `embeddings` [batch, dim], mean-pooled inside.
 */
async function model2vecRunner(options: EmbedderOptions): Promise<SessionRunner> {
  const { spec } = options;
  const progress_callback = downloadCallback(options);
  const tokenizer = (await AutoTokenizer.from_pretrained(spec.id, { progress_callback })) as unknown as HfTokenizer;
  const model = await AutoModel.from_pretrained(spec.id, {
    // model2vec repositories carry no transformers model_type; this one loads onnx/model.onnx as an encoder.
    config: { model_type: 'model2vec' } as never,
    device: onnxDevice(options),
    dtype: options.dtype,
    progress_callback,
  });
  const encode = model2vecEncoder(tokenizer, spec.maxLength);
  const run: BatchRunner = async (texts) => {
    const offsets: number[] = [];
    const flat: number[] = [];
    for (const text of texts) {
      offsets.push(flat.length);
      for (const id of encode(text)) flat.push(id);
    }
    const outputs = (await model({
      input_ids: new Tensor('int64', BigInt64Array.from(flat.map(BigInt)), [flat.length]),
      offsets: new Tensor('int64', BigInt64Array.from(offsets.map(BigInt)), [offsets.length]),
    })) as Record<string, Tensor>;
    const tensor = outputs.embeddings ?? Object.values(outputs)[0];
    if (!tensor) throw new Error(`${spec.id}: the model returned no output`);
    const { data, dim } = poolOutput(tensor, [], texts.length, 'none');
    if (spec.normalize) normalizeRowsOf(data, dim);
    return { data, dim };
  };
  return { run, dispose: async () => void (await model.dispose()) };
}

/** The default reader of static-table files: transformers.js's fetch, so servePickedFolder and watchingFetches apply. */
function fetchReader(onDownload: EmbedderOptions['onDownload']): ModelFileReader {
  return async (url) => {
    const response = await env.fetch(url);
    // The wording of transformers.js's own "not found", so classifyModelLoadFailure names the file.
    if (response.status === 404) throw new Error(`Could not locate file: "${url}".`);
    if (response.status === 401) throw new Error(`Unauthorized access to file: "${url}".`);
    if (response.status === 403) throw new Error(`Forbidden access to file: "${url}".`);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
    const total = Number(response.headers.get('content-length') ?? 0);
    if (!onDownload || !response.body) return new Uint8Array(await response.arrayBuffer());
    const file = url.slice(url.lastIndexOf('/') + 1);
    const parts: Uint8Array[] = [];
    let loaded = 0;
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      parts.push(chunk.value);
      loaded += chunk.value.byteLength;
      onDownload({ file, loaded, total: Math.max(total, loaded) });
    }
    const bytes = new Uint8Array(loaded);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.byteLength;
    }
    return bytes;
  };
}

/** Texts of a static table embedded between two progress reports (and chances to cancel). */
const STATIC_STEP = 512;
const STATIC_YIELD_MS = 50;

/**
 * A static table (static-table.ts) as an Embedder. There is nothing to batch: each text is a lookup and an
 * average written straight into the output, in input order (no length sort, no padding, no copies), so
 * `embed` and the naive `embedEach` do the same work. Every STATIC_STEP texts it reports progress, and
 * every STATIC_YIELD_MS it yields a macrotask, so a cancel (a worker message) is heard — not after every
 * step: a timer costs at least a millisecond (4 in a browser once nested), a fifth of a step's work.
 */
async function staticTableEmbedder(options: EmbedderOptions): Promise<Embedder> {
  const { spec, dtype } = options;
  const table = await loadStaticTable(modelBaseLocation(spec), options.readFile ?? fetchReader(options.onDownload));
  if (spec.dim !== 0 && table.header.dim !== spec.dim) throw new Error(`${spec.id}: the table has ${table.header.dim} dimensions, the registry says ${spec.dim}`);
  const encoder = new StaticTableEncoder(table);
  const dim = table.header.dim;
  const queue = new SessionQueue();
  const embedAll = async (texts: readonly string[], embedOptions: EmbedOptions = {}): Promise<VectorMatrix> => {
    const data = new Float32Array(texts.length * dim);
    const started = performance.now();
    let yielded = started;
    for (let from = 0; from < texts.length; from += STATIC_STEP) {
      embedOptions.signal?.throwIfAborted();
      const to = Math.min(texts.length, from + STATIC_STEP);
      for (let i = from; i < to; i++) {
        const row = data.subarray(i * dim, (i + 1) * dim);
        encoder.embedInto(texts[i]!, row);
        if (spec.normalize) normalizeInPlace(row);
      }
      embedOptions.onProgress?.(progressAt(to, texts.length, (performance.now() - started) / 1000, STATIC_STEP));
      if (to < texts.length && performance.now() - yielded >= STATIC_YIELD_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        yielded = performance.now();
      }
    }
    return { rows: texts.length, dim, data };
  };
  return {
    spec,
    device: 'cpu-lookup',
    dtype,
    embed: (texts, embedOptions = {}) => queue.run(() => embedAll(texts, embedOptions), embedOptions.signal),
    embedEach: (texts, embedOptions = {}) => queue.run(() => embedAll(texts, embedOptions), embedOptions.signal),
    dispose: () => queue.run(async () => undefined),
  };
}

/**
 * Runs tasks one at a time, in the order they were queued. An ONNX Runtime session is not meant to run two
 * inferences at once (a WebGPU session shares its buffers between runs), and two embeds whose batches
 * interleaved would also feed each other's timings to the adaptive batch sizer. A queued task whose signal
 * aborts before its turn rejects at once and never runs.
 */
export class SessionQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const result = this.tail.then(() => {
      signal?.throwIfAborted();
      return task();
    });
    this.tail = result.catch(() => undefined);
    if (signal === undefined) return result;
    // Stop waiting as soon as the signal aborts; the queue itself moves on when the task settles.
    return new Promise<T>((resolve, reject) => {
      const stop = () => reject(signal.reason);
      if (signal.aborted) stop();
      signal.addEventListener('abort', stop, { once: true });
      result.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
    });
  }
}

/** What runs a model: one batch at a time, and its release. */
export interface SessionRunner {
  run: BatchRunner;
  dispose: () => Promise<void>;
}

/** An Embedder over a runner, with its calls serialized (SessionQueue) and texts batched (embedBatched). */
export function embedderFromRunner(runner: SessionRunner, info: { spec: ModelSpec; device: EmbeddingDevice; dtype: EmbeddingDtype }): Embedder {
  const queue = new SessionQueue();
  const transformer = info.spec.kind === 'transformer';
  const defaultInitial = transformer ? 16 : 64;
  // Only a transformer's tensors grow with batch × length² (attention); pooled static models are not capped.
  const sizing = { maxTokens: info.spec.maxLength, ...(transformer ? { maxBatch: Math.max(1, Math.floor(MAX_BATCH_TOKENS / info.spec.maxLength)) } : {}) };
  return {
    ...info,
    embed: (texts, embedOptions = {}) =>
      queue.run(() => embedBatched(runner.run, texts, { initialBatchSize: defaultInitial, ...embedOptions, ...sizing }), embedOptions.signal),
    embedEach: (texts, embedOptions = {}) => queue.run(() => embedEach(runner.run, texts, embedOptions.signal), embedOptions.signal),
    // After the running call: releasing a session under a running inference fails in onnxruntime.
    dispose: () => queue.run(runner.dispose),
  };
}

/**
 * Loads the model files and creates the session(s), from where configureModelSource (model-source.ts)
 * pointed transformers.js. A failure is rethrown as one message that names the model, the file or URL,
 * and what to do (describeModelLoadFailure); the original error is its `cause`.
 */
export async function loadEmbedder(options: EmbedderOptions): Promise<Embedder> {
  const { spec, device, dtype } = options;
  return withLoadFailures(options, async (failedFetches) => {
    // A static table never runs on the device asked for: it is a lookup in TypeScript.
    if (spec.kind === 'static-table') return await watchingFetches(() => staticTableEmbedder(options), failedFetches);
    const runner = await watchingFetches(() => (spec.kind === 'model2vec' ? model2vecRunner(options) : pipelineRunner(options)), failedFetches);
    return embedderFromRunner(runner, { spec, device, dtype });
  });
}

/** Runs a model load; a failure is rethrown as a ModelLoadError that names the file or URL and what to do. */
async function withLoadFailures<T>(options: EmbedderOptions, load: (failedFetches: FailedRequest[]) => Promise<T>): Promise<T> {
  const { spec, dtype } = options;
  if (!spec.dtypes.includes(dtype)) throw new Error(`${spec.id} has no ${dtype} weights (has ${spec.dtypes.join(', ')})`);
  const failedFetches: FailedRequest[] = [];
  try {
    return await load(failedFetches);
  } catch (error) {
    const { kind, message } = classifyModelLoadFailure(spec, dtype, error, failedFetches);
    throw new ModelLoadError(message, kind, { cause: error });
  }
}

/** A model that did not load; the message says which file and what to do. */
export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
  constructor(
    message: string,
    readonly kind: ModelLoadFailureKind,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The adaptive sizer's largest batch for a transformer, in tokens at the model's maxLength (64 texts of tiny
 * BERT's 128, 16 of a 512-token model): larger batches were no faster, and their tensors of tens of MB made
 * the browser tests that embed SciFact slower.
 */
export const MAX_BATCH_TOKENS = 64 * 128;

/**
 * The batching loop, separate from the model so tests can drive it with a fake runner. `maxTokens`, the
 * model's maxLength, tells the adaptive sizer how much of a long text the model reads (batchWork); `maxBatch`
 * is its largest batch (default 512).
 */
export async function embedBatched(
  run: BatchRunner,
  texts: readonly string[],
  options: EmbedOptions & { maxTokens?: number; maxBatch?: number } = {},
): Promise<VectorMatrix> {
  const total = texts.length;
  const order = lengthOrder(texts);
  const fixed = typeof options.batchSize === 'number' ? Math.max(1, Math.floor(options.batchSize)) : undefined;
  const sizer = new BatchSizer({ initial: fixed ?? options.initialBatchSize ?? 16, min: 1, max: fixed ?? options.maxBatch ?? 512 });
  let out: Float32Array | undefined;
  let dim = 0;
  let done = 0;
  const started = performance.now();
  while (done < total) {
    options.signal?.throwIfAborted();
    const size = fixed ?? sizer.current();
    const rows = order.slice(done, done + size);
    const batch = rows.map((i) => texts[i]!);
    const t0 = performance.now();
    let result: { data: Float32Array; dim: number };
    try {
      result = await run(batch);
    } catch (error) {
      // Out-of-memory and similar failures of a large batch: retry smaller; a batch of 1 that fails is fatal.
      if (fixed === undefined && sizer.failed()) continue;
      throw error;
    }
    const seconds = (performance.now() - t0) / 1000;
    if (!out) {
      dim = result.dim;
      out = new Float32Array(total * dim);
    } else if (result.dim !== dim) {
      throw new Error(`vector size changed from ${dim} to ${result.dim}`);
    }
    rows.forEach((textIndex, k) => out!.set(result.data.subarray(k * dim, (k + 1) * dim), textIndex * dim));
    done += rows.length;
    if (fixed === undefined) sizer.record(size, batchWork(batch, options.maxTokens), seconds);
    options.onProgress?.(progressAt(done, total, (performance.now() - started) / 1000, size));
  }
  return { rows: total, dim, data: out ?? new Float32Array(0) };
}

async function embedEach(run: BatchRunner, texts: readonly string[], signal?: AbortSignal): Promise<VectorMatrix> {
  let out: Float32Array | undefined;
  let dim = 0;
  for (let i = 0; i < texts.length; i++) {
    signal?.throwIfAborted();
    const result = await run([texts[i]!]);
    dim = result.dim;
    out ??= new Float32Array(texts.length * dim);
    out.set(result.data.subarray(0, dim), i * dim);
  }
  return { rows: texts.length, dim, data: out ?? new Float32Array(0) };
}

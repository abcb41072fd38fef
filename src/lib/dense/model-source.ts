/**
 * Where transformers.js fetches model files from. Hub models resolve as `<remoteHost><id>/resolve/main/<file>`
 * (the Hugging Face layout, so a mirror or a local server with the same layout works by changing the host);
 * the project's own models resolve as `<localModelPath><id>/<file>`.
 *
 * `localModelPath` must be a path ('/models/' in the browser, a folder in Node), never an absolute URL:
 * transformers.js joins it with the model id and, in the browser, fetches it relative to the page origin.
 */
import { env } from '@huggingface/transformers';
import type { EmbeddingDtype, ModelSpec } from './registry.ts';

export interface ModelSourceConfig {
  /** Base path of the project's own models: '/models/' in the browser, an absolute folder in Node. */
  localModelPath: string;
  /** Hub host, default https://huggingface.co/. */
  remoteHost?: string;
  /** Default '{model}/resolve/{revision}/'. */
  remotePathTemplate?: string;
  /** False where no network may be used (tests, offline CLI). */
  allowRemote?: boolean;
}

const HUB_HOST = 'https://huggingface.co/';
const HUB_PATH_TEMPLATE = '{model}/resolve/{revision}/';

/**
 * Points transformers.js at the right place for this model. One model per worker (or per CLI run), so
 * switching the global env between local and hub sources is safe: a local model never falls through to
 * the hub, and a hub id never hits the app's own server (whose SPA fallback would answer 200 with HTML).
 */
export function configureModelSource(spec: Pick<ModelSpec, 'source'>, config: ModelSourceConfig): void {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(config.localModelPath)) {
    throw new Error(`localModelPath must be a path, not a URL: ${config.localModelPath}`);
  }
  const local = spec.source === 'local';
  env.localModelPath = config.localModelPath.endsWith('/') ? config.localModelPath : `${config.localModelPath}/`;
  env.allowLocalModels = local;
  env.allowRemoteModels = !local && (config.allowRemote ?? true);
  env.remoteHost = config.remoteHost ?? HUB_HOST;
  env.remotePathTemplate = config.remotePathTemplate ?? HUB_PATH_TEMPLATE;
}

/** Where a model folder the user picked is mounted; its files are answered by the env.fetch below. */
const PICKED_MODELS_PATH = '/picked-models/';

/**
 * Serves a model folder the user picked in the browser (<input webkitdirectory>, or the File System
 * Access API): requests for `/picked-models/<id>/<path>` are answered from `files` (keyed by the path
 * inside the folder: 'config.json', 'onnx/model.onnx', …) without touching the network; every other
 * request goes to the previous fetch. Returns the source config to load `<id>` as a local model. Give each
 * pick its own id: transformers.js caches local files by path.
 */
export function servePickedFolder(id: string, files: ReadonlyMap<string, Blob>): ModelSourceConfig {
  const prefix = `${PICKED_MODELS_PATH}${id}/`;
  const next = env.fetch;
  env.fetch = async (input: string | URL, init?: unknown) => {
    const url = String(input);
    const at = url.indexOf(prefix);
    if (at < 0) return next(input, init);
    const file = files.get(decodeURIComponent(url.slice(at + prefix.length)));
    return file ? new Response(file) : new Response(null, { status: 404, statusText: 'Not Found' });
  };
  return { localModelPath: PICKED_MODELS_PATH, allowRemote: false };
}

/** The ONNX weights file transformers.js reads for a dtype (its `dtype` → file-suffix convention). */
export function onnxFileOf(dtype: EmbeddingDtype): string {
  return dtype === 'q8' ? 'onnx/model_quantized.onnx' : dtype === 'fp16' ? 'onnx/model_fp16.onnx' : 'onnx/model.onnx';
}

/** Where transformers.js reads a model's files from, as configured now (a URL in the browser, a path in Node). */
export function modelBaseLocation(spec: Pick<ModelSpec, 'id' | 'source'>): string {
  if (spec.source === 'local') return `${env.localModelPath}${spec.id}/`;
  const path = (env.remotePathTemplate ?? HUB_PATH_TEMPLATE).replaceAll('{model}', spec.id).replaceAll('{revision}', 'main');
  return `${env.remoteHost ?? HUB_HOST}${path}`;
}

const TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json'];

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The file named by transformers.js's "not found" messages (its URL or path), relative to the model folder. */
function missingFile(message: string, base: string): string | undefined {
  const quoted = /(?:Could not locate file|Unauthorized access to file|Forbidden access to file|not found locally at)[^"]*"([^"]+)"/.exec(message)?.[1];
  if (quoted === undefined) return undefined;
  return quoted.startsWith(base) ? quoted.slice(base.length) : quoted;
}

/** A request of transformers.js that failed without an answer (a network error), with that error. */
export interface FailedRequest {
  url: string;
  error: unknown;
}

/** What a load failure message needs of a model: embedding models and cross-encoders (src/lib/rerank) alike. */
export type LoadableModel = Pick<ModelSpec, 'id' | 'source' | 'dtypes'> & { kind?: string };

/** What went wrong loading a model (see describeModelLoadFailure). */
export type ModelLoadFailureKind = 'missing' | 'denied' | 'network' | 'format' | 'runtime' | 'json' | 'other';

/**
 * Why a model did not load, as one message that names the model, the file or URL, and what to do.
 * `error` is what transformers.js or onnxruntime threw; `failed` the requests that got no answer (a
 * network error names no URL, and transformers.js reports a local file whose request failed as missing). The kinds: a request that failed (network), a file missing (404, or absent
 * from a local folder; the tokenizer and the ONNX weights get their own advice), access denied (401/403),
 * a file that is not an ONNX model (format), a runtime that cannot start on the device, a JSON file that is
 * not JSON (a server answering with an HTML page).
 */
export function classifyModelLoadFailure(
  spec: LoadableModel,
  dtype: EmbeddingDtype,
  error: unknown,
  failed: readonly FailedRequest[] = [],
): { kind: ModelLoadFailureKind; message: string } {
  const reason = reasonOf(error);
  const base = modelBaseLocation(spec);
  const model = `the model ${spec.id}`;
  const ownModels = spec.source === 'local' && !base.includes(PICKED_MODELS_PATH) ? ' The project’s own models are built by `npm run models`.' : '';
  // onnxruntime's own failures first: they may quote a failed import as "Failed to fetch".
  if (/no available backend found|backend not found|webgpu is not supported|failed to get gpu adapter/i.test(reason)) {
    return {
      kind: 'runtime',
      message: `Could not load ${model}: onnxruntime could not start on this device (${reason}). Choose the other device (WASM or WebGPU) in the column's settings; the diagnostics page shows what this browser offers.`,
    };
  }
  // transformers.js reports a local file whose request failed as "not found locally": the failed request says more.
  if (failed.length > 0 || /failed to fetch|fetch failed|networkerror|network error|load failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN/i.test(reason)) {
    const what = failed.length > 0 ? [...new Set(failed.map((request) => request.url))].join(', ') : `its files from ${base}`;
    const why = failed.length > 0 ? reasonOf(failed[0]!.error) : reason;
    return {
      kind: 'network',
      message: `Could not load ${model}: downloading ${what} failed (${why}). Check the network connection and that the host is reachable (a model loads offline only once this browser has it), or point ?remoteHost= at a reachable mirror.`,
    };
  }
  const file = missingFile(reason, base);
  if (file !== undefined) {
    const at = `${base}${file}`;
    if (/Unauthorized|Forbidden/.test(reason)) {
      return { kind: 'denied', message: `Could not load ${model}: access to ${file} was refused (${at}). The repository may be gated or private; pick a public model or a mirror (?remoteHost=).` };
    }
    if (TOKENIZER_FILES.includes(file)) {
      return {
        kind: 'missing',
        message: `Could not load ${model}: its tokenizer (${file}) was not found at ${at}. transformers.js needs tokenizer.json and tokenizer_config.json beside config.json; use a copy of the model converted for transformers.js.${ownModels}`,
      };
    }
    if (file.endsWith('.onnx') || file.includes('.onnx_data')) {
      return {
        kind: 'missing',
        message: `Could not load ${model}: no ${dtype} ONNX weights at ${at}. Pick another dtype (${spec.dtypes.join(', ')}), or a copy of the model converted to ONNX for transformers.js (e.g. from onnx-community/ or Xenova/).${ownModels}`,
      };
    }
    return { kind: 'missing', message: `Could not load ${model}: ${file} was not found at ${at}. Check the model id and that the host serves it.${ownModels}` };
  }
  if (/protobuf parsing failed|failed to load model|invalid (onnx )?model|can't create a session|no graph/i.test(reason)) {
    const onnx = onnxFileOf(dtype);
    return {
      kind: 'format',
      message: `Could not load ${model}: ${base}${onnx} is not a valid ONNX model (${reason}). The file may be damaged, cut short, or another format: download it again, or use a model converted to ONNX for transformers.js.${ownModels}`,
    };
  }
  if (error instanceof SyntaxError || /is not valid JSON|Unexpected token|JSON\.parse|JSON at position/i.test(reason)) {
    // A static table has one JSON file; transformers.js models have the tokenizer's too.
    const files = spec.kind === 'static-table' ? 'its config.json' : `one of its JSON files (config.json, ${TOKENIZER_FILES.join(', ')})`;
    return {
      kind: 'json',
      message: `Could not load ${model}: ${files} under ${base} is not JSON (${reason}). The server may have answered with an HTML page instead of the file: check the address.${ownModels}`,
    };
  }
  return { kind: 'other', message: `Could not load ${model} from ${base} (${reason}).${ownModels}` };
}

/** The message of classifyModelLoadFailure. */
export function describeModelLoadFailure(spec: LoadableModel, dtype: EmbeddingDtype, error: unknown, failed: readonly FailedRequest[] = []): string {
  return classifyModelLoadFailure(spec, dtype, error, failed).message;
}

/**
 * Where transformers.js fetches model files from. Hub models resolve as `<remoteHost><id>/resolve/main/<file>`
 * (the Hugging Face layout, so a mirror or a local server with the same layout works by changing the host);
 * the project's own models resolve as `<localModelPath><id>/<file>`.
 *
 * `localModelPath` must be a path ('/models/' in the browser, a folder in Node), never an absolute URL:
 * transformers.js joins it with the model id and, in the browser, fetches it relative to the page origin.
 */
import { env } from '@huggingface/transformers';
import type { ModelSpec } from './registry.ts';

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

export const HUB_HOST = 'https://huggingface.co/';
export const HUB_PATH_TEMPLATE = '{model}/resolve/{revision}/';

/**
 * Points transformers.js at the right place for this model. One model per worker (or per CLI run), so
 * switching the global env between local and hub sources is safe: a local model never falls through to
 * the hub, and a hub id never hits the app's own server (whose SPA fallback would answer 200 with HTML).
 */
export function configureModelSource(spec: ModelSpec, config: ModelSourceConfig): void {
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
export const PICKED_MODELS_PATH = '/picked-models/';

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

import { entryFiles, hubFileUrl, type CatalogEntry, type HubFile } from '../catalog/catalog.ts';
import { ParseError } from '../data/errors.ts';
import { memoryRandomAccess, readAll, type ImportFile, type ImportPlan, type OpenOptions } from './import-file.ts';

/**
 * Downloads from a dataset hub (Hugging Face layout, see catalog.ts) straight into the parsers: each file
 * is fetched when the import reaches it and its body streamed (gzip decompressed on the fly), so nothing is
 * held whole except parquet files, which need random access and are small (NanoBEIR). The hub's address is
 * a setting (`hubUrl`), so tests and offline mirrors can serve the same paths.
 */

export interface HubOptions {
  /** E.g. https://huggingface.co, or a local mirror serving `/datasets/<repo>/resolve/<rev>/<path>`. */
  hubUrl: string;
  fetch?: typeof globalThis.fetch;
}

/** The name a hub file goes by in messages and reports: `BeIR/scifact/corpus.jsonl.gz`. */
function hubFileName(file: Pick<HubFile, 'repo' | 'path'>): string {
  return `${file.repo}/${file.path}`;
}

async function download(url: string, name: string, signal: AbortSignal | undefined, fetchImpl: typeof globalThis.fetch): Promise<ReadableStream<Uint8Array>> {
  let response: Response;
  try {
    response = await fetchImpl(url, signal === undefined ? {} : { signal });
  } catch (error) {
    signal?.throwIfAborted();
    const message = error instanceof Error ? error.message : String(error);
    throw new ParseError(name, 0, 'io', `could not download ${url} (${message}); is the hub address right, and reachable from this browser?`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new ParseError(name, 0, 'io', `download failed: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} for ${url}`);
  }
  if (response.body === null) throw new ParseError(name, 0, 'io', `download failed: empty response for ${url}`);
  return response.body;
}

function hubImportFile(role: ImportFile['role'], file: HubFile, split: string | undefined, options: HubOptions): ImportFile {
  const url = hubFileUrl(options.hubUrl, file);
  const name = hubFileName(file);
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    role,
    ...(split === undefined ? {} : { split }),
    format: file.format,
    name,
    ...(file.bytes === undefined ? {} : { size: file.bytes }),
    open: (open: OpenOptions = {}) => download(url, name, open.signal, fetchImpl),
    random: async (open: OpenOptions = {}) => memoryRandomAccess(await readAll(await download(url, name, open.signal, fetchImpl), open)),
  };
}

/** The import plan of a catalog entry: the collection id is the entry's id. */
export function hubImportPlan(entry: CatalogEntry, options: HubOptions): ImportPlan {
  const files = entryFiles(entry).map(({ role, file, split }) => hubImportFile(role, file, split, options));
  const [corpus, queries, ...qrels] = files as [ImportFile, ImportFile, ...ImportFile[]];
  return {
    meta: { id: entry.id, name: entry.name, language: entry.language, source: { kind: 'hub', detail: `${options.hubUrl.replace(/\/+$/, '')}/datasets/${entry.files.corpus.repo}` } },
    corpus,
    queries,
    qrels,
  };
}

/**
 * Exact sizes from HEAD requests (Content-Length; the hub's `X-Linked-Size` for files behind a redirect),
 * file name → bytes; files whose size could not be learned are left out. Never throws: sizes only make the
 * progress bar exact.
 */
export async function hubFileSizes(entry: CatalogEntry, options: HubOptions & { signal?: AbortSignal }): Promise<Map<string, number>> {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sizes = new Map<string, number>();
  await Promise.all(
    entryFiles(entry).map(async ({ file }) => {
      try {
        const response = await fetchImpl(hubFileUrl(options.hubUrl, file), { method: 'HEAD', ...(options.signal ? { signal: options.signal } : {}) });
        const header = response.headers.get('x-linked-size') ?? response.headers.get('content-length');
        const size = header === null ? NaN : Number(header);
        if (response.ok && Number.isFinite(size) && size >= 0) sizes.set(hubFileName(file), size);
      } catch {
        // Unknown size: the bar for this file is indeterminate.
      }
    }),
  );
  return sizes;
}

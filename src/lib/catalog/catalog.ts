/**
 * The download catalog as data: which public test collections the playground can fetch from a dataset hub
 * (Hugging Face layout), where each file lives, and what a person should know before downloading (size,
 * licence, language, splits). The import code (src/lib/import/hub.ts) only follows these entries.
 */

/** How a file's content is encoded; `.gz` is detected from the bytes, not the name. */
export type HubFileFormat = 'jsonl' | 'tsv' | 'parquet';

export type FileRole = 'corpus' | 'queries' | 'qrels';

export interface HubFile {
  /** Dataset repository, `owner/name`. */
  repo: string;
  /** Path inside the repository. */
  path: string;
  /** Branch, tag or commit; default `main`. */
  revision?: string;
  format: HubFileFormat;
  /** Download size as listed on the hub; absent when the listing was not read. */
  bytes?: number;
}

export interface QrelsFile extends HubFile {
  /** The split as the playground names it (test, dev, train). */
  split: string;
}

export type CatalogFamily = 'beir' | 'cqadupstack' | 'nanobeir' | 'beir-pl';

export interface CatalogEntry {
  /** Also the id of the stored collection: `beir/scifact`, `nanobeir/scifact`, `beir-pl/scifact`, … */
  id: string;
  name: string;
  family: CatalogFamily;
  files: { corpus: HubFile; queries: HubFile; qrels: QrelsFile[] };
  /** One line for the catalog table, e.g. "jsonl.gz + tsv". */
  format: string;
  /** SPDX-like id or a short phrase; `licenceNote` says more where the source data has its own terms. */
  licence: string;
  licenceNote?: string;
  /** Approximate total download, in bytes. */
  approxBytes: number;
  /** Documents and queries, as published (BEIR paper Table 1, the hub cards). */
  docs?: number;
  queries?: number;
  /** BCP 47 language of the texts. */
  language: 'en' | 'pl';
  splits: string[];
  notes: string;
}

/** The hub the app downloads from unless told otherwise (a setting; tests point it at a local server). */
export const DEFAULT_HUB_URL = 'https://huggingface.co';

/**
 * URL of a file in a dataset repository, as the Hugging Face hub serves it:
 * `<hub>/datasets/<owner>/<name>/resolve/<revision>/<path>` (large files answer with a redirect to their
 * storage, which `fetch` follows).
 */
export function hubFileUrl(hubUrl: string, file: Pick<HubFile, 'repo' | 'path' | 'revision'>): string {
  const base = hubUrl.replace(/\/+$/, '');
  const repo = file.repo.split('/').map(encodeURIComponent).join('/');
  const path = file.path.split('/').map(encodeURIComponent).join('/');
  return `${base}/datasets/${repo}/resolve/${encodeURIComponent(file.revision ?? 'main')}/${path}`;
}

/** Every file of an entry with its role, corpus first (the order an import reads them in). */
export function entryFiles(entry: CatalogEntry): Array<{ role: FileRole; file: HubFile; split?: string }> {
  return [
    { role: 'corpus', file: entry.files.corpus },
    { role: 'queries', file: entry.files.queries },
    ...entry.files.qrels.map((file) => ({ role: 'qrels' as const, file, split: file.split })),
  ];
}

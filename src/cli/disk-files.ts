/**
 * Files on disk as the page's import code takes them (`LocalInput`: a path as a drop gives it, and a Blob):
 * a folder is walked as the page walks a dropped folder (`<folder>/<relative path>`, subfolders included),
 * a file is taken as a dropped file (its name). The Blobs are Node's file-backed ones (`fs.openAsBlob`): the
 * import code samples, slices (zips, parquet) and streams them without reading a file whole.
 */
import { createReadStream, openAsBlob } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { LocalInput } from '../lib/import/local.ts';
import type { ImportFile, ImportPlan } from '../lib/import/import-file.ts';

/** Large reads: fewer chunks means fewer async steps per megabyte. */
const READ_CHUNK = 1 << 20;

export interface DiskInputs {
  inputs: LocalInput[];
  /** The folder the inputs' paths are relative to (the dataset's parent folder). */
  base: string;
}

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

/**
 * A folder's files, paths relative to `base`, in name order, subfolders walked (each real folder once, so a
 * symbolic link loop ends). Hidden entries are not walked: the page's classification ignores them anyway.
 * A gzipped file beside its plain twin (`corpus.jsonl.gz` beside `corpus.jsonl`) is left out: the plain one
 * is read, as the CLI always did (the page would see two corpora).
 */
async function walk(dir: string, relative: string, seen: Set<string>, out: Array<{ path: string; file: string }>): Promise<void> {
  const real = await realpath(dir);
  if (seen.has(real)) return;
  seen.add(real);
  const names = (await readdir(dir)).filter((name) => !name.startsWith('.')).sort();
  const present = new Set(names);
  for (const name of names) {
    if (/\.gz$/i.test(name) && present.has(name.slice(0, -3))) continue;
    const file = join(dir, name);
    const info = await statOrUndefined(file);
    const path = relative === '' ? name : `${relative}/${name}`;
    if (info?.isDirectory()) await walk(file, path, seen, out);
    else if (info?.isFile()) out.push({ path, file });
  }
}

/** The files at `path` (a folder or one file) as the page's inputs; undefined when nothing is there. */
export async function diskInputs(path: string): Promise<DiskInputs | undefined> {
  const info = await statOrUndefined(path);
  if (info === undefined) return undefined;
  const files: Array<{ path: string; file: string }> = [];
  // A hidden folder asked for by name is read: its name is then left out of the paths, which the
  // classification would otherwise ignore as hidden.
  const hidden = info.isDirectory() && basename(path).startsWith('.');
  const base = hidden ? path : dirname(path);
  if (hidden) await walk(path, '', new Set(), files);
  else if (info.isDirectory()) await walk(path, basename(path), new Set(), files);
  else files.push({ path: basename(path), file: path });
  const inputs: LocalInput[] = [];
  for (const { path: relative, file } of files) inputs.push({ path: relative, blob: await openAsBlob(file) });
  return { inputs, base };
}

/**
 * The plan with its files named by their place on disk (messages then name a path the shell can open), and
 * large plain files streamed in large chunks; zip entries keep their own reading.
 */
export function onDisk(plan: ImportPlan, inputs: DiskInputs): ImportPlan {
  const plain = new Set(inputs.inputs.map((input) => input.path));
  const place = (file: ImportFile): ImportFile => {
    const path = join(inputs.base, file.name);
    // Small files stay on the Blob's stream: a 1 MiB read buffer per .txt document costs more than it saves.
    const large = plain.has(file.name) && (file.size ?? 0) >= READ_CHUNK;
    const opened = large ? { open: async () => createReadStream(path, { highWaterMark: READ_CHUNK }) } : {};
    return { ...file, name: path, ...opened };
  };
  return {
    ...plan,
    corpus: place(plan.corpus),
    ...(plan.corpusParts === undefined ? {} : { corpusParts: plan.corpusParts.map(place) }),
    ...(plan.queries === undefined ? {} : { queries: place(plan.queries) }),
    qrels: plan.qrels.map(place),
  };
}

import type { FileRole } from '../catalog/catalog.ts';
import { guessFieldMapping, type FieldGuess } from './field-mapping.ts';
import { headRecords } from './head-records.ts';
import type { ImportFormat } from './import-file.ts';
import { TEXT_EXTENSIONS } from './text-documents.ts';

/**
 * Recognising the files of a collection among whatever a person dropped (a folder, a zip, loose files): by
 * name and place first (BEIR: `corpus.jsonl`, `queries.jsonl`, `qrels/<split>.tsv`; NanoBEIR:
 * `corpus/…parquet`, `queries/…`, `qrels/…`), by content when the name says nothing (a JSON record with a
 * "title" or a text field such as Pyserini's "contents" is a document, three tab-separated columns ending in
 * a number are judgments). Other shapes of a corpus:
 * - several JSON files of documents in one folder (Pyserini's JSON collection folder): one corpus, read in
 *   path order;
 * - plain `.txt` / `.md` files when no data file is a corpus: one document each.
 * For a corpus of records (JSON, CSV) the fields holding id, text and title are guessed from its first
 * records (field-mapping.ts). The result is shown before anything is imported. Pure functions over names
 * and the first bytes of each file.
 */

export interface FileSample {
  /** Path as dropped: `scifact/qrels/test.tsv`, `beir.zip/scifact/corpus.jsonl`. */
  path: string;
  size: number;
  /** The first lines of the file, decompressed when it is gzip (undefined for parquet or unreadable files). */
  head?: string;
  /** The file starts with gzip's magic bytes. */
  gzip: boolean;
  /** The file starts with parquet's magic `PAR1`. */
  parquet: boolean;
}

export interface ClassifiedFile {
  path: string;
  size: number;
  /** Undefined: ignored (see `note`) or not recognised. */
  role?: FileRole;
  split?: string;
  format?: ImportFormat;
  /** Why: "named corpus.jsonl", "3 tab-separated columns", "not a data file". */
  note: string;
  ignored: boolean;
}

export interface LocalPlanPaths {
  corpus: string;
  /** Further files of the same corpus, read after `corpus` (absent when the corpus is one file). */
  corpusParts?: string[];
  queries?: string;
  qrels: Array<{ split: string; path: string }>;
}

export interface Inspection {
  files: ClassifiedFile[];
  /** Why the files cannot be imported as they are (empty when `plan` is set). */
  problems: string[];
  /** Worth saying but not blocking (no queries, no judgments). */
  warnings: string[];
  plan?: LocalPlanPaths;
  /** For a corpus of records (JSON lines, a JSON array, CSV): the fields found and the guessed mapping. */
  fields?: FieldGuess;
  /** A name for the collection: the common folder, the zip's name or the corpus file's. */
  suggestedName: string;
}

const DATA_EXTENSIONS: Record<string, ImportFormat> = { jsonl: 'jsonl', json: 'json', ndjson: 'jsonl', tsv: 'tsv', csv: 'csv', parquet: 'parquet', txt: 'tsv' };

/** Text fields other than BEIR's `text`: a record holding one is a document, not a query. */
const DOCUMENT_TEXT_FIELDS = ['contents', 'body', 'content', 'passage'];

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `corpus.jsonl.gz` → { stem: 'corpus', extension: 'jsonl' }. */
function splitName(path: string): { stem: string; extension: string } {
  const name = baseName(path).toLowerCase().replace(/\.(gz|gzip)$/, '');
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? { stem: name, extension: '' } : { stem: name.slice(0, dot), extension: name.slice(dot + 1) };
}

function isHidden(path: string): boolean {
  return path.split('/').some((part) => part.startsWith('.') || part === '__MACOSX');
}

function firstLine(head: string | undefined): string | undefined {
  return head?.split('\n').find((line) => line.trim().length > 0)?.replace(/\r$/, '').replace(/^\uFEFF/, '');
}

function isJson(format: ImportFormat): boolean {
  return format === 'jsonl' || format === 'json';
}

/** A qrels split from a file name: `test.tsv`, `qrels.dev.tsv`, `qrels-train`, `test-00000-of-00001.parquet`. */
export function splitFromName(stem: string): string {
  const cleaned = stem.replace(/-\d{5}-of-\d{5}$/, '').replace(/^qrels[._-]?/, '').replace(/[._-]?qrels$/, '');
  return cleaned.length === 0 ? 'test' : cleaned;
}

const SPLIT_NAMES = ['test', 'dev', 'train', 'validation', 'val'];

function roleFromName(path: string, stem: string, format: ImportFormat): FileRole | undefined {
  const folders = path.toLowerCase().split('/').slice(0, -1);
  // A bare split name (test.tsv) is a qrels file; test.jsonl is not (BEIR never names JSON lines so).
  const splitNamed = !isJson(format) && SPLIT_NAMES.includes(stem.replace(/-\d{5}-of-\d{5}$/, ''));
  if (folders.includes('qrels') || /qrels/.test(stem) || (splitNamed && folders.at(-1) !== 'corpus' && folders.at(-1) !== 'queries')) return 'qrels';
  if (/corpus|^docs?$|documents|^collection$/.test(stem) || folders.at(-1) === 'corpus') return 'corpus';
  if (/quer(y|ies)|topics/.test(stem) || folders.at(-1) === 'queries') return 'queries';
  return undefined;
}

function roleFromContent(format: ImportFormat, head: string | undefined): { role?: FileRole; note: string } {
  const line = firstLine(head);
  if (line === undefined) return { note: 'empty, or its start could not be read' };
  if (isJson(format)) {
    const sampled = headRecords(head, format);
    const what = sampled.array === true ? 'a JSON array of objects' : 'JSON lines';
    const first = sampled.records[0];
    if (first === undefined) return { note: sampled.array === true ? 'a JSON array without a readable first object' : 'the first line is not a JSON object' };
    const keys = Object.keys(first);
    const quoted = (names: readonly string[]) => names.map((key) => `"${key}"`).join(' and ');
    if (keys.includes('title')) return { role: 'corpus', note: `${what} with "title": documents` };
    const textField = keys.find((key) => DOCUMENT_TEXT_FIELDS.includes(key.toLowerCase()));
    if (textField !== undefined) return { role: 'corpus', note: `${what} with ${quoted(keys.filter((key) => key !== textField).slice(0, 1).concat(textField))}: documents` };
    if (keys.includes('_id') && keys.includes('text')) return { note: `${what} with "_id" and "text" (documents or queries?)` };
    return { note: `${what} with ${keys.map((key) => `"${key}"`).join(', ')}` };
  }
  const fields = line.split(format === 'csv' ? /[,;]/ : '\t').map((field) => field.trim().toLowerCase().replace(/^"|"$/g, ''));
  const kind = format === 'csv' ? 'comma' : 'tab';
  if (fields.includes('title')) return { role: 'corpus', note: `${kind}-separated columns with "title": documents` };
  const textField = fields.find((field) => DOCUMENT_TEXT_FIELDS.includes(field));
  if (textField !== undefined) return { role: 'corpus', note: `${kind}-separated columns with "${textField}": documents` };
  const numericLast = /^[+-]?\d+(\.\d*)?$/.test(fields[2] ?? '');
  if (fields.length === 3 && (numericLast || /^(query-id|query_id|qid)$/.test(fields[0] ?? ''))) {
    return { role: 'qrels', note: `3 ${kind}-separated columns: judgments` };
  }
  return { note: `${fields.length} ${kind}-separated columns on the first line` };
}

/** One file: what it is and why we think so. */
export function classifyFile(sample: FileSample): ClassifiedFile {
  const { path, size } = sample;
  const base = { path, size };
  if (isHidden(path)) return { ...base, note: 'hidden or system file', ignored: true };
  const { stem, extension } = splitName(path);
  const textKind = TEXT_EXTENSIONS[extension];
  if (!sample.parquet && textKind !== undefined && !(extension === 'txt' && /qrels/.test(path.toLowerCase()))) {
    // Decided with the other files: the corpus when no data file is one (see inspectFiles).
    return { ...base, role: 'corpus', format: textKind, note: textKind === 'markdown' ? 'a Markdown file: one document' : 'a text file: one document', ignored: false };
  }
  const format: ImportFormat | undefined = sample.parquet ? 'parquet' : DATA_EXTENSIONS[extension];
  if (format === undefined) return { ...base, note: 'not a data file (.jsonl, .json, .tsv, .csv, .parquet, optionally .gz) or a document (.txt, .md)', ignored: true };
  const named = roleFromName(path, stem, format);
  const content = format === 'parquet' ? { note: 'parquet' } : roleFromContent(format, sample.head);
  const role = named ?? content.role;
  const note = named !== undefined ? `named ${baseName(path)}${format === 'parquet' ? ' (parquet)' : ''}` : content.note;
  if (role === undefined) return { ...base, format, note, ignored: false };
  return { ...base, role, format, note, ignored: false, ...(role === 'qrels' ? { split: splitFromName(stem) } : {}) };
}

function commonFolder(paths: readonly string[]): string | undefined {
  const folders = paths.map((path) => path.split('/').slice(0, -1));
  const first = folders[0];
  if (first === undefined || first.length === 0) return undefined;
  let depth = 0;
  while (depth < first.length && folders.every((parts) => parts[depth] === first[depth])) depth += 1;
  return depth === 0 ? undefined : first[depth - 1];
}

function nameFor(files: readonly ClassifiedFile[], corpus: string | undefined): string {
  const folder = commonFolder(files.filter((file) => !file.ignored).map((file) => file.path));
  const stem = corpus === undefined ? undefined : splitName(corpus).stem;
  // A corpus file named just "corpus" says nothing about the collection.
  const raw = folder ?? (stem === undefined || stem === 'corpus' ? 'My collection' : stem);
  return raw.replace(/\.zip$/i, '') || 'My collection';
}

function unique(role: FileRole, files: readonly ClassifiedFile[], problems: string[]): ClassifiedFile | undefined {
  const found = files.filter((file) => file.role === role);
  if (found.length > 1) {
    problems.push(`${found.length} files look like ${role === 'corpus' ? 'a corpus' : 'queries'}: ${found.map((file) => file.path).join(', ')}. Import one collection at a time (one folder of a multi-collection zip), or remove the others.`);
    return undefined;
  }
  return found[0];
}

function isTextDocument(file: ClassifiedFile): boolean {
  return file.format === 'text' || file.format === 'markdown';
}

/**
 * The corpus's files: one data file, several JSON files of documents side by side in one folder (Pyserini's
 * folder of `.jsonl` parts; two files of one name such as corpus.jsonl and corpus.jsonl.gz stay a
 * conflict), or, when no data file is a corpus, every text document. Text files beside a data corpus are
 * ignored (a README).
 */
function corpusFiles(files: readonly ClassifiedFile[], problems: string[]): ClassifiedFile[] {
  const data = files.filter((file) => file.role === 'corpus' && !isTextDocument(file));
  const texts = files.filter((file) => file.role === 'corpus' && isTextDocument(file));
  if (data.length > 0) {
    for (const text of texts) {
      text.role = undefined;
      text.ignored = true;
      text.note = `${text.note.replace(/: one document$/, '')} beside the corpus: not imported`;
    }
  }
  if (data.length === 0) return [...texts].sort((a, b) => a.path.localeCompare(b.path));
  if (data.length === 1) return data;
  const folder = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);
  const stems = new Set(data.map((file) => splitName(file.path).stem));
  const parts = data.every((file) => isJson(file.format ?? 'jsonl') && folder(file.path) === folder(data[0]!.path)) && stems.size === data.length;
  if (parts) {
    const sorted = [...data].sort((a, b) => a.path.localeCompare(b.path, undefined, { numeric: true }));
    for (const file of sorted) file.note += `; part ${sorted.indexOf(file) + 1} of ${sorted.length} of the corpus`;
    return sorted;
  }
  unique('corpus', data, problems);
  return [];
}

/** What the corpus's first records say about its fields, for formats made of records. */
function fieldGuess(corpus: ClassifiedFile | undefined, samples: readonly FileSample[]): FieldGuess | undefined {
  if (corpus === undefined || (corpus.format !== 'jsonl' && corpus.format !== 'json' && corpus.format !== 'csv')) return undefined;
  const sample = samples.find((candidate) => candidate.path === corpus.path);
  const { records, columns } = headRecords(sample?.head, corpus.format);
  if (records.length === 0 && (columns === undefined || columns.length === 0)) return undefined;
  return guessFieldMapping(records, columns);
}

/** All files together: which is the corpus, the queries, the judgments of each split, or what is wrong. */
export function inspectFiles(samples: readonly FileSample[]): Inspection {
  const files = samples.map(classifyFile);
  const problems: string[] = [];
  const warnings: string[] = [];
  // Unrecognised JSON lines: the largest is taken as the corpus when nothing is named so, and a single
  // remaining one as the queries when there are none.
  const unclear = files.filter((file) => !file.ignored && file.role === undefined && isJson(file.format ?? 'tsv'));
  // Text documents do not count here: a README beside an unclear corpus file must not become the corpus.
  if (!files.some((file) => file.role === 'corpus' && !isTextDocument(file)) && unclear.length > 0) {
    const largest = [...unclear].sort((a, b) => b.size - a.size)[0]!;
    largest.role = 'corpus';
    largest.note += '; the largest JSON lines file, taken as the corpus';
    unclear.splice(unclear.indexOf(largest), 1);
  }
  if (!files.some((file) => file.role === 'queries') && unclear.length === 1) {
    unclear[0]!.role = 'queries';
    unclear[0]!.note += '; taken as the queries';
  }
  for (const file of files) {
    if (!file.ignored && file.role === undefined) file.note += ' — not recognised, not imported';
  }
  const corpusParts = corpusFiles(files, problems);
  const corpus = corpusParts[0];
  const queries = unique('queries', files, problems);
  const qrels: LocalPlanPaths['qrels'] = [];
  for (const file of files.filter((candidate) => candidate.role === 'qrels')) {
    const split = file.split ?? 'test';
    const taken = qrels.find((entry) => entry.split === split);
    if (taken !== undefined) problems.push(`two judgment files for the split "${split}": ${taken.path} and ${file.path}`);
    else qrels.push({ split, path: file.path });
  }
  if (corpus === undefined && !problems.some((problem) => problem.includes('a corpus'))) {
    problems.push('no corpus found: a BEIR collection needs a corpus.jsonl (or .jsonl.gz, .csv, .parquet) with one document per line; Pyserini JSON files of {"id", "contents"} and folders of .txt or .md files are read too');
  }
  if (queries === undefined && corpus !== undefined) warnings.push('no queries file: the collection can be explored with your own queries, not evaluated');
  if (qrels.length === 0 && corpus !== undefined) warnings.push('no judgments (qrels): the collection will have no splits, and metrics will say "no judgments"');
  if (qrels.length > 0 && queries === undefined) warnings.push('judgments without a queries file: nothing to evaluate until queries are added');
  const suggestedName = nameFor(files, corpus?.path);
  const fields = fieldGuess(corpus, samples);
  const found = { files, problems, warnings, suggestedName, ...(fields === undefined ? {} : { fields }) };
  if (problems.length > 0 || corpus === undefined) return found;
  const more = corpusParts.slice(1).map((file) => file.path);
  return {
    ...found,
    plan: { corpus: corpus.path, ...(more.length === 0 ? {} : { corpusParts: more }), ...(queries === undefined ? {} : { queries: queries.path }), qrels },
  };
}

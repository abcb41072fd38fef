/**
 * Which field of a document record holds its id, its text and its title, for corpora that do not use
 * BEIR's `_id` / `text` / `title`: Pyserini's `{"id", "contents"}`, a CSV with `doc_id,body`, … The guess
 * looks at the field names first (the conventions below, in order), then, when no name matches, at the
 * values of the first records: an id is a short single token that differs in every record, the text is the
 * field with the longest strings. The import preview shows the guess and lets the person correct it.
 * Pure functions over plain records.
 */

/** The record field each role is read from; `title: null` means the documents have no title. */
export interface FieldMapping {
  id: string;
  text: string;
  title: string | null;
}

/** BEIR's own layout: what every parser reads when no mapping is given. */
export const BEIR_FIELDS: FieldMapping = { id: '_id', text: 'text', title: 'title' };

/** Names recognised for each role, most specific first (compared without case). */
export const FIELD_NAMES = {
  id: ['_id', 'id', 'docid', 'doc_id', 'doc-id', 'corpus-id', 'corpus_id', 'pid'],
  text: ['text', 'contents', 'body', 'content', 'passage'],
  title: ['title'],
} as const;

export type FieldRole = keyof FieldMapping;

/** How one role was chosen, for the preview: by its name, by its values, or not at all. */
export type GuessReason = 'name' | 'values' | 'none';

export interface FieldGuess {
  /** Every field met in the sampled records, in first-seen order. */
  fields: string[];
  /** The guess; `id` or `text` is `''` when nothing fits (the person must choose). */
  mapping: FieldMapping;
  reasons: Record<FieldRole, GuessReason>;
  /** The first records, as strings (at most a few), so the preview can show what a choice reads. */
  samples: Array<Record<string, string>>;
}

export type SampleRecord = Readonly<Record<string, unknown>>;

const SAMPLES_SHOWN = 3;

/** A value as the text a person would read (ids may be numbers in JSON, cells are strings). */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function fieldsOf(records: readonly SampleRecord[]): string[] {
  const seen = new Set<string>();
  for (const record of records) for (const key of Object.keys(record)) seen.add(key);
  return [...seen];
}

function byName(fields: readonly string[], names: readonly string[], taken: ReadonlySet<string>): string | undefined {
  const lower = new Map<string, string>();
  for (const field of fields) if (!taken.has(field) && !lower.has(field.toLowerCase())) lower.set(field.toLowerCase(), field);
  for (const name of names) {
    const found = lower.get(name);
    if (found !== undefined) return found;
  }
  return undefined;
}

function scalarValues(records: readonly SampleRecord[], field: string): unknown[] {
  return records.map((record) => record[field]);
}

/** Short, single-token, present and different in every sampled record: what an id looks like. */
function looksLikeId(records: readonly SampleRecord[], field: string): boolean {
  const values = scalarValues(records, field);
  if (values.length === 0) return false;
  const texts = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string' && typeof value !== 'number') return false;
    const text = String(value);
    if (text.length === 0 || text.length > 128 || /\s/.test(text)) return false;
    texts.add(text);
  }
  return texts.size === values.length;
}

function meanStringLength(records: readonly SampleRecord[], field: string): number {
  const values = scalarValues(records, field);
  if (!values.every((value) => typeof value === 'string' || value === null || value === undefined)) return -1;
  return values.reduce<number>((sum, value) => sum + (typeof value === 'string' ? value.length : 0), 0) / Math.max(1, values.length);
}

/** The mapping the first records suggest (see the module comment). */
export function guessFieldMapping(records: readonly SampleRecord[], knownFields: readonly string[] = []): FieldGuess {
  const fields = [...new Set([...knownFields, ...fieldsOf(records)])];
  const taken = new Set<string>();
  const reasons: Record<FieldRole, GuessReason> = { id: 'none', text: 'none', title: 'none' };

  let id = byName(fields, FIELD_NAMES.id, taken);
  if (id !== undefined) reasons.id = 'name';
  let text = byName(fields, FIELD_NAMES.text, new Set(id === undefined ? [] : [id]));
  if (text !== undefined) reasons.text = 'name';
  if (id !== undefined) taken.add(id);
  if (text !== undefined) taken.add(text);
  const title = byName(fields, FIELD_NAMES.title, taken) ?? null;
  if (title !== null) {
    reasons.title = 'name';
    taken.add(title);
  }

  if (text === undefined) {
    let best = 0;
    for (const field of fields) {
      if (taken.has(field)) continue;
      const length = meanStringLength(records, field);
      if (length > best) {
        best = length;
        text = field;
      }
    }
    if (text !== undefined) {
      reasons.text = 'values';
      taken.add(text);
    }
  }
  if (id === undefined) {
    id = fields.find((field) => !taken.has(field) && looksLikeId(records, field));
    if (id !== undefined) reasons.id = 'values';
  }

  const samples = records.slice(0, SAMPLES_SHOWN).map((record) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key, valueText(value)])));
  return { fields, mapping: { id: id ?? '', text: text ?? '', title }, reasons, samples };
}

/** What is wrong with a mapping over `fields` (empty when it can be imported). */
export function mappingProblems(mapping: FieldMapping, fields: readonly string[]): string[] {
  const problems: string[] = [];
  const known = new Set(fields);
  if (mapping.id === '') problems.push('choose the field that holds the document id');
  else if (!known.has(mapping.id)) problems.push(`the id field "${mapping.id}" is not in the file`);
  if (mapping.text === '') problems.push('choose the field that holds the document text');
  else if (!known.has(mapping.text)) problems.push(`the text field "${mapping.text}" is not in the file`);
  if (mapping.title !== null && !known.has(mapping.title)) problems.push(`the title field "${mapping.title}" is not in the file`);
  if (mapping.id !== '' && mapping.id === mapping.text) problems.push('the id and the text cannot be the same field');
  return problems;
}

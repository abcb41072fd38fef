import { ParseError } from './errors.ts';
import { findJsonSyntaxError } from './json-syntax.ts';

/**
 * Reading one JSON Lines record (a BEIR corpus or queries line) with messages a person can act on:
 * `corpus.jsonl:17: "_id" is missing`, `queries.jsonl:3: invalid JSON (unexpected "}" at column 12)`.
 */

export type JsonObject = Record<string, unknown>;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Parses a line that must hold one JSON object. */
export function parseJsonObject(text: string, file: string, line: number): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const found = findJsonSyntaxError(text);
    const reason = found
      ? `invalid JSON (${found.problem} at column ${found.column})`
      : `invalid JSON (${error instanceof Error ? error.message : String(error)})`;
    throw new ParseError(file, line, 'invalid-json', reason, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ParseError(file, line, 'invalid-json', `expected a JSON object {…}, found ${typeName(value)}`);
  }
  return value as JsonObject;
}

function has(record: JsonObject, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, field);
}

/**
 * The record's id (`_id` unless the import mapped another field): a non-empty string. Numbers are rejected,
 * not converted: JSON numbers above 2^53 lose digits (a 19-digit tweet id would silently change) and `7`
 * cannot say whether the qrels spell it "7" or "007", so a converted id could quietly fail to match its
 * judgments.
 */
export function readId(record: JsonObject, file: string, line: number, field = '_id'): string {
  if (!has(record, field)) throw new ParseError(file, line, 'missing-field', `"${field}" is missing`);
  const id = record[field];
  if (typeof id === 'number') {
    throw new ParseError(file, line, 'invalid-field', `"${field}" must be a string, found the number ${JSON.stringify(id)} (write it in quotes)`);
  }
  if (typeof id !== 'string') throw new ParseError(file, line, 'invalid-field', `"${field}" must be a string, found ${typeName(id)}`);
  if (id.length === 0) throw new ParseError(file, line, 'invalid-field', `"${field}" is empty`);
  return id;
}

/** A required string field (it may be empty). */
export function readText(record: JsonObject, field: string, file: string, line: number): string {
  if (!has(record, field)) throw new ParseError(file, line, 'missing-field', `"${field}" is missing`);
  const value = record[field];
  if (typeof value !== 'string') throw new ParseError(file, line, 'invalid-field', `"${field}" must be a string, found ${typeName(value)}`);
  return value;
}

/** An optional string field: absent or null reads as "". */
export function readOptionalText(record: JsonObject, field: string, file: string, line: number): string {
  const value = has(record, field) ? record[field] : undefined;
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new ParseError(file, line, 'invalid-field', `"${field}" must be a string, found ${typeName(value)}`);
  return value;
}

/**
 * `metadata`, when it holds something: absent, null and `{}` all read as undefined, so a corpus whose
 * every line carries `"metadata": {}` (SciFact) does not keep thousands of empty objects.
 */
export function readMetadata(record: JsonObject, file: string, line: number): JsonObject | undefined {
  if (!has(record, 'metadata')) return undefined;
  const value = record.metadata;
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ParseError(file, line, 'invalid-field', `"metadata" must be an object, found ${typeName(value)}`);
  }
  const metadata = value as JsonObject;
  return hasOwnKeys(metadata) ? metadata : undefined;
}

function hasOwnKeys(object: JsonObject): boolean {
  for (const key in object) if (has(object, key)) return true;
  return false;
}

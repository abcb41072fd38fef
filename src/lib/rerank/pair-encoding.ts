/**
 * (query, document) → the token ids and segment ids a cross-encoder reads, with the document truncated and
 * the query kept (Hugging Face's truncation 'only_second'). transformers.js's tokenizer encodes pairs
 * (`text_pair`) but only truncates by cutting the sequence's end, which drops the closing [SEP] and, past the
 * document, the query; so pairs are built here from the two texts' own token ids and the tokenizer's pair
 * template: BERT's `[CLS] q [SEP] d [SEP]` with token_type_ids 0…0 1…1, XLM-R's `<s> q </s></s> d </s>`.
 *
 * The template is read off the tokenizer by encoding two probe pairs (pairTemplateOf), so any tokenizer whose
 * pair encoding is "special tokens, query, special tokens, document, special tokens" works, and a tokenizer
 * that does something else is refused with a message rather than encoded wrongly.
 */
import { indexOfRun } from '../dense/token-ids.ts';

/** What pair encoding needs of a tokenizer (transformers.js's, or a fake in tests). */
export interface PairTokenizer {
  /** Token ids of a text without special tokens. */
  ids(text: string): number[];
  /** The tokenizer's own encoding of a pair, with special tokens, not truncated; typeIds all 0 when it has none. */
  pair(first: string, second: string): { ids: number[]; typeIds: number[] };
}

interface Part {
  ids: number[];
  typeIds: number[];
}

/** The special tokens around and between the two texts, and each text's segment id. */
export interface PairTemplate {
  prefix: Part;
  middle: Part;
  suffix: Part;
  queryTypeId: number;
  docTypeId: number;
}

export interface EncodedPair {
  ids: number[];
  typeIds: number[];
  /** Document tokens dropped to fit maxLength. */
  docTokensCut: number;
  /** Query tokens dropped (only when the query alone would take more than half the room). */
  queryTokensCut: number;
}

const PROBES: ReadonlyArray<readonly [string, string]> = [
  ['what causes rain', 'clouds release water as drops'],
  ['a b', 'c, d. e'],
];

function templateFrom(tokenizer: PairTokenizer, first: string, second: string): PairTemplate {
  const q = tokenizer.ids(first);
  const d = tokenizer.ids(second);
  const full = tokenizer.pair(first, second);
  const qAt = indexOfRun(full.ids, q, 0);
  const dAt = qAt < 0 ? -1 : indexOfRun(full.ids, d, qAt + q.length);
  if (qAt < 0 || dAt < 0 || q.length === 0 || d.length === 0) {
    throw new Error(`the tokenizer's pair encoding does not hold the two texts' own tokens in order (probe "${first}" / "${second}")`);
  }
  const part = (from: number, to: number): Part => ({ ids: full.ids.slice(from, to), typeIds: full.typeIds.slice(from, to) });
  return {
    prefix: part(0, qAt),
    middle: part(qAt + q.length, dAt),
    suffix: part(dAt + d.length, full.ids.length),
    queryTypeId: full.typeIds[qAt] ?? 0,
    docTypeId: full.typeIds[dAt] ?? 0,
  };
}

/** The tokenizer's pair template; throws when two probes disagree or the texts' tokens are not found. */
export function pairTemplateOf(tokenizer: PairTokenizer): PairTemplate {
  const [first, ...others] = PROBES.map(([a, b]) => templateFrom(tokenizer, a, b));
  for (const other of others) {
    if (JSON.stringify(other) !== JSON.stringify(first)) throw new Error('the tokenizer adds different special tokens to different pairs');
  }
  return first!;
}

/** Tokens a pair's special tokens take. */
function specialTokenCount(template: PairTemplate): number {
  return template.prefix.ids.length + template.middle.ids.length + template.suffix.ids.length;
}

/**
 * [prefix] query [middle] document [suffix] in at most maxLength tokens. The document is cut first; the
 * query is cut only when it alone would leave the document less than half the room (Hugging Face's
 * 'only_second' refuses such a pair instead; a typed query that long is not worth an error).
 */
export function encodePair(template: PairTemplate, queryIds: readonly number[], docIds: readonly number[], maxLength: number): EncodedPair {
  const room = maxLength - specialTokenCount(template);
  if (room < 2) throw new Error(`maxLength ${maxLength} leaves no room for a query and a document`);
  let queryKeep = queryIds.length;
  let docKeep = docIds.length;
  if (queryKeep + docKeep > room) {
    const docFloor = Math.min(docIds.length, Math.floor(room / 2));
    queryKeep = Math.min(queryKeep, room - docFloor);
    docKeep = Math.min(docKeep, room - queryKeep);
  }
  const ids: number[] = [];
  const typeIds: number[] = [];
  const push = (tokens: readonly number[], types: readonly number[] | number) => {
    for (let i = 0; i < tokens.length; i++) {
      ids.push(tokens[i]!);
      typeIds.push(typeof types === 'number' ? types : types[i]!);
    }
  };
  push(template.prefix.ids, template.prefix.typeIds);
  push(queryIds.slice(0, queryKeep), template.queryTypeId);
  push(template.middle.ids, template.middle.typeIds);
  push(docIds.slice(0, docKeep), template.docTypeId);
  push(template.suffix.ids, template.suffix.typeIds);
  return { ids, typeIds, docTokensCut: docIds.length - docKeep, queryTokensCut: queryIds.length - queryKeep };
}

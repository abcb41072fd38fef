import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { STARTER_COLLECTION, STARTER_QUERY_KINDS, isStarterQueryMetadata } from '../../../src/lib/starter/index.ts';

// Structural checks of the starter collection's BEIR files, plus guards that keep its teaching design
// intact when someone edits a document: semantic queries share no analyzed term with their relevant
// documents, lexical queries carry a term found only in relevant documents, hybrid relevant documents match
// the query lexically.

/** Document id prefix → theme: every document belongs to one of these. */
const STARTER_THEMES = {
  food: 'Kitchen and food science',
  astro: 'Astronomy',
  bike: 'Bicycles and repair',
  health: 'Health and the history of medicine',
  comp: 'History of computing',
  garden: 'Gardening',
} as const;

const starterDir = fileURLToPath(new URL('../../../src/lib/starter/', import.meta.url));
const readStarter = (relative: string): string => readFileSync(starterDir + relative, 'utf8');

interface CorpusLine { _id: string; title: string; text: string }
interface QueryLine { _id: string; text: string; metadata: { kind: string; note: string } }
interface Judgment { queryId: string; docId: string; grade: number }

/** Splits a file into lines, requiring a single final newline and no blank or CRLF lines. */
function fileLines(raw: string, file: string): string[] {
  expect(raw.startsWith('\uFEFF'), `${file} has a BOM`).toBe(false);
  expect(raw.includes('\r'), `${file} has CR characters`).toBe(false);
  expect(raw.endsWith('\n'), `${file} lacks a final newline`).toBe(true);
  const lines = raw.slice(0, -1).split('\n');
  lines.forEach((line, i) => expect(line.trim(), `${file}:${i + 1} is blank`).not.toBe(''));
  return lines;
}

function parseJsonLines(file: string): unknown[] {
  return fileLines(readStarter(file), file).map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new Error(`${file}:${i + 1} is not valid JSON`);
    }
  });
}

const corpus = parseJsonLines(STARTER_COLLECTION.files.corpus) as CorpusLine[];
const queries = parseJsonLines(STARTER_COLLECTION.files.queries) as QueryLine[];
const qrelsLines = fileLines(readStarter(STARTER_COLLECTION.files.qrels), STARTER_COLLECTION.files.qrels);
const judgments: Judgment[] = qrelsLines.slice(1).map((line) => {
  const [queryId = '', docId = '', grade = ''] = line.split('\t');
  return { queryId, docId, grade: Number(grade) };
});

const docsById = new Map(corpus.map((d) => [d._id, d]));
const judgmentsOf = (queryId: string) => judgments.filter((j) => j.queryId === queryId);
const wordCount = (s: string) => s.trim().split(/\s+/).length;

const english = englishAnalyzer();
/** The distinct terms the playground's BM25 indexes for `s` (Lucene's EnglishAnalyzer). */
function analyze(s: string): Set<string> {
  return new Set(english.analyze(s));
}
const docTerms = new Map(corpus.map((d) => [d._id, analyze(`${d.title} ${d.text}`)]));
const shared = (queryText: string, docId: string) =>
  [...analyze(queryText)].filter((t) => docTerms.get(docId)?.has(t) === true);

describe('starter corpus.jsonl', () => {
  it('has 80–120 documents with exactly _id, title and text as non-empty strings', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(80);
    expect(corpus.length).toBeLessThanOrEqual(120);
    for (const doc of corpus) {
      expect(Object.keys(doc).sort(), JSON.stringify(doc)).toEqual(['_id', 'text', 'title']);
      for (const field of [doc._id, doc.title, doc.text]) {
        expect(typeof field).toBe('string');
        expect(field.trim()).not.toBe('');
      }
    }
  });

  it('has unique ids, each prefixed by a known theme', () => {
    expect(docsById.size).toBe(corpus.length);
    for (const doc of corpus) expect(Object.keys(STARTER_THEMES), doc._id).toContain(doc._id.split('-')[0]);
  });

  it('keeps every document text between 40 and 120 words', () => {
    for (const doc of corpus) {
      const words = wordCount(doc.text);
      expect(words, doc._id).toBeGreaterThanOrEqual(40);
      expect(words, doc._id).toBeLessThanOrEqual(120);
    }
  });

  it('spreads documents over 4–6 themes with at least 12 each', () => {
    const perTheme = new Map<string, number>();
    for (const doc of corpus) {
      const theme = doc._id.split('-')[0] ?? '';
      perTheme.set(theme, (perTheme.get(theme) ?? 0) + 1);
    }
    expect(perTheme.size).toBeGreaterThanOrEqual(4);
    expect(perTheme.size).toBeLessThanOrEqual(6);
    for (const [theme, n] of perTheme) expect(n, theme).toBeGreaterThanOrEqual(12);
  });

  it('says "fictional" or "invented" in every document about an invented product or person', () => {
    const invented = /Brimwell|Marlow|Velomark|Tarrant|Okonkwo-Reyes/;
    const flagged = corpus.filter((d) => invented.test(`${d.title} ${d.text}`));
    expect(flagged.length).toBeGreaterThan(0);
    for (const doc of flagged) expect(`${doc.title} ${doc.text}`, doc._id).toMatch(/fictional|invented/);
  });
});

describe('starter queries.jsonl', () => {
  it('has 18–25 queries with _id, text and metadata { kind, note }', () => {
    expect(queries.length).toBeGreaterThanOrEqual(18);
    expect(queries.length).toBeLessThanOrEqual(25);
    for (const query of queries) {
      expect(Object.keys(query).sort(), query._id).toEqual(['_id', 'metadata', 'text']);
      expect(query.text.trim(), query._id).not.toBe('');
      expect(Object.keys(query.metadata).sort(), query._id).toEqual(['kind', 'note']);
      expect(isStarterQueryMetadata(query.metadata), query._id).toBe(true);
    }
  });

  it('has unique ids that do not collide with document ids', () => {
    const ids = new Set(queries.map((q) => q._id));
    expect(ids.size).toBe(queries.length);
    for (const id of ids) expect(docsById.has(id), id).toBe(false);
  });

  it('has at least 4 queries of each kind', () => {
    for (const kind of STARTER_QUERY_KINDS) {
      expect(queries.filter((q) => q.metadata.kind === kind).length, kind).toBeGreaterThanOrEqual(4);
    }
  });

  it('gives every query a one-sentence note', () => {
    for (const query of queries) {
      const note = query.metadata.note.trim();
      expect(note.length, query._id).toBeGreaterThan(20);
      expect(note, query._id).toMatch(/[.)]$/);
      // A second sentence would start after ". " with a capital letter ("e.g." style abbreviations are not used).
      expect(note.slice(0, -1), query._id).not.toMatch(/[.!?] [A-Z]/);
    }
  });
});

describe('starter qrels/test.tsv', () => {
  it('starts with the BEIR header and has three tab-separated fields per line', () => {
    expect(qrelsLines[0]).toBe('query-id\tcorpus-id\tscore');
    for (const line of qrelsLines.slice(1)) expect(line.split('\t'), line).toHaveLength(3);
  });

  it('uses grades 0, 1 and 2 only, each pair once', () => {
    const pairs = new Set<string>();
    for (const { queryId, docId, grade } of judgments) {
      expect([0, 1, 2], `${queryId} ${docId}`).toContain(grade);
      const pair = `${queryId}\t${docId}`;
      expect(pairs.has(pair), pair).toBe(false);
      pairs.add(pair);
    }
  });

  it('points only to existing documents and queries', () => {
    const queryIds = new Set(queries.map((q) => q._id));
    for (const { queryId, docId } of judgments) {
      expect(queryIds.has(queryId), queryId).toBe(true);
      expect(docsById.has(docId), docId).toBe(true);
    }
  });

  it('judges every query with at least one relevant and one non-relevant document', () => {
    for (const query of queries) {
      const own = judgmentsOf(query._id);
      expect(own.some((j) => j.grade > 0), query._id).toBe(true);
      expect(own.some((j) => j.grade === 0), query._id).toBe(true);
    }
  });
});

describe('starter metadata (index.ts)', () => {
  it('lists files that exist and counts that match them', () => {
    for (const file of Object.values(STARTER_COLLECTION.files)) expect(() => readStarter(file)).not.toThrow();
    expect(STARTER_COLLECTION.counts).toEqual({
      documents: corpus.length,
      queries: queries.length,
      judgments: judgments.length,
    });
  });

  it('names the licence and the authors', () => {
    expect(STARTER_COLLECTION.licence).toBe('CC BY 4.0');
    expect(STARTER_COLLECTION.attribution).toBe('Retrieval Playground authors');
    expect(STARTER_COLLECTION.name.trim()).not.toBe('');
    expect(STARTER_COLLECTION.description.trim()).not.toBe('');
  });
});

describe('starter teaching design (approximate English analysis)', () => {
  it('analyzes like Lucene EnglishAnalyzer on the cases the guards rely on', () => {
    expect([...analyze("Who wrote the Computer's 17,468 vacuum tubes?")]).toEqual(['who', 'wrote', 'comput', '17,468', 'vacuum', 'tube']);
    expect([...analyze('RX-4471 and B12')]).toEqual(['rx', '4471', 'b12']);
  });

  const byKind = (kind: string) => queries.filter((q) => q.metadata.kind === kind);

  it('semantic: relevant documents share no analyzed term with the query, a judged-0 document does', () => {
    for (const query of byKind('semantic')) {
      const own = judgmentsOf(query._id);
      for (const j of own.filter((x) => x.grade > 0)) expect(shared(query.text, j.docId), `${query._id} ${j.docId}`).toEqual([]);
      expect(own.some((j) => j.grade === 0 && shared(query.text, j.docId).length > 0), query._id).toBe(true);
    }
  });

  it('lexical: some query term occurs in every highly relevant document and in no non-relevant one', () => {
    for (const query of byKind('lexical')) {
      const own = judgmentsOf(query._id);
      const highly = own.filter((j) => j.grade === 2).map((j) => j.docId);
      const relevant = new Set(own.filter((j) => j.grade > 0).map((j) => j.docId));
      const rareTerms = [...analyze(query.text)].filter(
        (t) =>
          highly.every((id) => docTerms.get(id)?.has(t) === true) &&
          corpus.every((d) => relevant.has(d._id) || docTerms.get(d._id)?.has(t) !== true),
      );
      expect(rareTerms.length, query._id).toBeGreaterThan(0);
    }
  });

  it('hybrid: relevant documents match the query lexically, and so do judged-0 lexical traps', () => {
    for (const query of byKind('hybrid')) {
      const own = judgmentsOf(query._id);
      for (const j of own.filter((x) => x.grade > 0)) expect(shared(query.text, j.docId).length, `${query._id} ${j.docId}`).toBeGreaterThan(0);
      const traps = own.filter((j) => j.grade === 0 && shared(query.text, j.docId).length > 0);
      expect(traps.length, query._id).toBeGreaterThanOrEqual(2);
    }
  });
});

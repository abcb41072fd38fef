/**
 * Parity with Lucene 8.7's EnglishAnalyzer on BEIR SciFact. Reference: the shared token files
 * `reference/scifact-corpus.lucene-english-tokens.jsonl.gz` and `scifact-queries.lucene-english-tokens.jsonl.gz`
 * (one `{"_id", "tokens"}` per line, generated with Debian's liblucene8-java), documents analyzed as
 * `title + " " + text` of `beir/scifact/corpus.jsonl`, queries as the `text` of `queries.jsonl`.
 *
 * Limit: the project allows 0.1% of documents (≤ 5) to differ; this implementation runs Lucene's own
 * tokenizer DFA and stemming rules, so it is exact and any mismatch is a regression: the limit asserted is 0.
 */
import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../../src/lib/data/lines.ts';
import { englishAnalyzer, englishTerm } from '../../../src/lib/analysis/english-analyzer.ts';
import { shared } from '../../shared-dir.ts';

const MAX_MISMATCHING_DOCS = 0;
const MAX_MISMATCHING_QUERIES = 0;

async function* jsonLines(...parts: string[]): AsyncGenerator<Record<string, unknown>> {
  const path = shared(...parts);
  for await (const line of readLines(createReadStream(path), { file: path })) {
    if (line.text.trim() !== '') yield JSON.parse(line.text) as Record<string, unknown>;
  }
}

async function referenceTokens(file: string): Promise<Map<string, string[]>> {
  const byId = new Map<string, string[]>();
  for await (const row of jsonLines('reference', file)) byId.set(String(row._id), row.tokens as string[]);
  return byId;
}

interface Mismatch {
  id: string;
  expected: string[];
  actual: string[];
}

/** First differing position with a few terms of context, for the console. */
function describeMismatch({ id, expected, actual }: Mismatch): string {
  let i = 0;
  while (i < expected.length && expected[i] === actual[i]) i++;
  const from = Math.max(0, i - 3);
  return (
    `${id}: first difference at term ${i} (Lucene ${expected.length} terms, ours ${actual.length})\n` +
    `  lucene: ${JSON.stringify(expected.slice(from, i + 5))}\n` +
    `  ours:   ${JSON.stringify(actual.slice(from, i + 5))}`
  );
}

function compare(label: string, analyzed: Map<string, string[]>, reference: Map<string, string[]>): Mismatch[] {
  expect(analyzed.size).toBe(reference.size);
  const mismatches: Mismatch[] = [];
  for (const [id, actual] of analyzed) {
    const expected = reference.get(id);
    expect(expected, `${label} ${id} missing from the reference`).toBeDefined();
    if (JSON.stringify(expected) !== JSON.stringify(actual)) mismatches.push({ id, expected: expected ?? [], actual });
  }
  console.log(`${label}: ${mismatches.length} of ${analyzed.size} differ from Lucene 8.7 EnglishAnalyzer`);
  for (const m of mismatches.slice(0, 5)) console.log(describeMismatch(m));
  return mismatches;
}

describe('englishAnalyzer parity with Lucene 8.7 EnglishAnalyzer on SciFact', () => {
  it('analyzes the 5,183 documents (title + " " + text) exactly as Lucene', async () => {
    const texts = new Map<string, string>();
    for await (const doc of jsonLines('beir', 'scifact', 'corpus.jsonl')) {
      texts.set(String(doc._id), `${String(doc.title)} ${String(doc.text)}`);
    }
    const reference = await referenceTokens('scifact-corpus.lucene-english-tokens.jsonl.gz');
    expect(texts.size).toBe(5183);

    const analyzer = englishAnalyzer();
    const started = performance.now();
    const analyzed = new Map([...texts].map(([id, text]) => [id, analyzer.analyze(text)] as const));
    const elapsed = performance.now() - started;
    const tokenCount = [...analyzed.values()].reduce((sum, terms) => sum + terms.length, 0);
    console.log(`analyzed ${texts.size} docs, ${tokenCount} terms in ${elapsed.toFixed(0)} ms (informational)`);

    expect(compare('documents', analyzed, reference).length).toBeLessThanOrEqual(MAX_MISMATCHING_DOCS);

    // Offsets point at the text each term came from (sampled: every 50th document).
    let checked = 0;
    for (const [id, text] of [...texts].filter((_, i) => i % 50 === 0)) {
      const tokens = englishAnalyzer().analyzeWithOffsets(text);
      expect(tokens.map((t) => t.term)).toEqual(analyzed.get(id));
      for (const t of tokens) expect(englishTerm(text.slice(t.start, t.end))).toBe(t.term);
      checked += tokens.length;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('analyzes the 1,109 queries exactly as Lucene', async () => {
    const analyzer = englishAnalyzer();
    const analyzed = new Map<string, string[]>();
    for await (const query of jsonLines('beir', 'scifact', 'queries.jsonl')) {
      analyzed.set(String(query._id), analyzer.analyze(String(query.text)));
    }
    const reference = await referenceTokens('scifact-queries.lucene-english-tokens.jsonl.gz');
    expect(analyzed.size).toBe(1109);
    expect(compare('queries', analyzed, reference).length).toBeLessThanOrEqual(MAX_MISMATCHING_QUERIES);
  });
});

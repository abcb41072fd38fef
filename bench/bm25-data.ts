/**
 * The benchmark's inputs: SciFact analyzed once by the project's EnglishAnalyzer (title + " " + text for
 * documents, the 300 test queries), cached in a JSON file that each measuring process reads, and the
 * synthetic scale-ups (the corpus repeated n times, copies with new ids).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadDataset } from '../src/cli/dataset.ts';
import { englishAnalyzer } from '../src/lib/analysis/english-analyzer.ts';
import { bm25DocText } from '../src/lib/services/bm25-service.ts';
import type { Qrels } from '../src/lib/types.ts';
import { shared } from '../tests/shared-dir.ts';
import type { BenchDoc, BenchQuery } from './bm25-systems.ts';

export interface AnalyzedCollection {
  docs: { id: string; terms: string[] }[];
  queries: { id: string; terms: string[] }[];
  /** Test qrels as [queryId, docId, grade]. */
  judgments: [string, string, number][];
}

/** Analyzes SciFact (test split) and writes it to `path`. */
export async function writeAnalyzedSciFact(path: string): Promise<AnalyzedCollection> {
  const collection = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
  const analyzer = englishAnalyzer();
  const qrels = collection.qrels.get('test')!;
  const data: AnalyzedCollection = {
    docs: collection.docs.map((doc) => ({ id: doc.id, terms: analyzer.analyze(bm25DocText(doc)) })),
    queries: [...collection.queries.values()].filter((query) => qrels.has(query.id)).map((query) => ({ id: query.id, terms: analyzer.analyze(query.text) })),
    judgments: [...qrels].flatMap(([queryId, docs]) => [...docs].map(([docId, grade]): [string, string, number] => [queryId, docId, grade])),
  };
  writeFileSync(path, JSON.stringify(data));
  return data;
}

export function readAnalyzedCollection(path: string): AnalyzedCollection {
  return JSON.parse(readFileSync(path, 'utf8')) as AnalyzedCollection;
}

/** The corpus repeated `scale` times; copy c > 0 of document d gets the id `d~c`. */
export function scaledDocs(data: AnalyzedCollection, scale: number): BenchDoc[] {
  const originals = data.docs.map((doc) => ({ id: doc.id, terms: doc.terms, text: doc.terms.join(' ') }));
  const docs: BenchDoc[] = [];
  for (let copy = 0; copy < scale; copy++) {
    for (const doc of originals) docs.push(copy === 0 ? doc : { ...doc, id: `${doc.id}~${copy}` });
  }
  return docs;
}

export function benchQueries(data: AnalyzedCollection): BenchQuery[] {
  return data.queries.map((query) => ({ id: query.id, terms: query.terms, text: query.terms.join(' ') }));
}

export function qrelsOf(data: AnalyzedCollection): Qrels {
  const qrels: Qrels = new Map();
  for (const [queryId, docId, grade] of data.judgments) {
    let docs = qrels.get(queryId);
    if (!docs) qrels.set(queryId, (docs = new Map()));
    docs.set(docId, grade);
  }
  return qrels;
}

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import type { AnalyzedDoc } from '../../../src/lib/bm25/bm25-index.ts';
import { bm25DocText } from '../../../src/lib/services/bm25-service.ts';
import { BM25_WASM_URL } from '../../../src/lib/bm25-wasm/kernel-url.ts';
import type { BeirCollection } from '../../../src/lib/data/beir.ts';
import { shared } from '../../shared-dir.ts';

let module: Promise<WebAssembly.Module> | undefined;

/** The compiled kernel from build/wasm (`npm run build:wasm` must have run). */
export function kernelModule(): Promise<WebAssembly.Module> {
  const path = fileURLToPath(BM25_WASM_URL);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build:wasm\` first`);
  module ??= WebAssembly.compile(readFileSync(path));
  return module;
}

export interface AnalyzedSciFact {
  collection: BeirCollection;
  docs: AnalyzedDoc[];
  /** Every query of the test and train qrels, in queries-file order, with its analyzed terms. */
  queries: { id: string; terms: string[] }[];
}

let scifact: Promise<AnalyzedSciFact> | undefined;

/** BEIR SciFact read by the project's loader and analyzed by the EnglishAnalyzer (title + " " + text). */
export function analyzedSciFact(): Promise<AnalyzedSciFact> {
  scifact ??= (async () => {
    const collection = await loadDataset(shared('beir', 'scifact'));
    const analyzer = englishAnalyzer();
    const docs = collection.docs.map((doc) => ({ id: doc.id, terms: analyzer.analyze(bm25DocText(doc)) }));
    const judged = (id: string) => [...collection.qrels.values()].some((qrels) => qrels.has(id));
    const queries = [...collection.queries.values()]
      .filter((query) => judged(query.id))
      .map((query) => ({ id: query.id, terms: analyzer.analyze(query.text) }));
    return { collection, docs, queries };
  })();
  return scifact;
}

import type { CatalogEntry } from './catalog.ts';

/**
 * BEIR-PL (Wojtasik et al., 2023, arXiv:2305.19840): BEIR machine-translated into Polish by CLARIN.
 * `clarin-knext/<name>-pl` holds `corpus.jsonl.gz` and `queries.jsonl.gz` at the root, in BEIR's format;
 * judgments are in `clarin-knext/<name>-pl-qrels` as `test.tsv`.
 *
 * Read from: huggingface.co/datasets/clarin-knext/scifact-pl/tree/main (corpus.jsonl.gz 3.1 MB,
 * queries.jsonl.gz 54.9 kB), clarin-knext/touche2020-pl-qrels (test.tsv at the root),
 * clarin-knext/scidocs-pl-qrels and clarin-knext/nfcorpus-pl-qrels (test split; nfcorpus-pl-qrels also has
 * train and validation splits whose file names were not read, so only test is listed). Sizes other than
 * SciFact-PL's are estimated from the English files. Ids and judgments are BEIR's, so metrics compare
 * directly with the English collection.
 */

const SETS: ReadonlyArray<[name: string, display: string, corpusBytes: number, queriesBytes: number, docs: number, queries: number, measured: boolean]> = [
  ['scifact', 'SciFact', 3_100_000, 54_900, 5_183, 1_109, true],
  ['nfcorpus', 'NFCorpus', 2_200_000, 90_000, 3_633, 3_237, false],
  ['arguana', 'ArguAna', 3_500_000, 700_000, 8_674, 1_406, false],
  ['fiqa', 'FiQA-2018', 20_000_000, 220_000, 57_638, 6_648, false],
  ['scidocs', 'SciDocs', 150_000_000, 1_900_000, 25_657, 1_000, false],
  ['trec-covid', 'TREC-COVID', 80_000_000, 5_000, 171_332, 50, false],
];

export const BEIR_PL_ENTRIES: readonly CatalogEntry[] = SETS.map(([name, display, corpusBytes, queriesBytes, docs, queries, measured]) => ({
  id: `beir-pl/${name}`,
  name: `${display} (Polish, BEIR-PL)`,
  family: 'beir-pl',
  files: {
    corpus: { repo: `clarin-knext/${name}-pl`, path: 'corpus.jsonl.gz', format: 'jsonl', ...(measured ? { bytes: corpusBytes } : {}) },
    queries: { repo: `clarin-knext/${name}-pl`, path: 'queries.jsonl.gz', format: 'jsonl', ...(measured ? { bytes: queriesBytes } : {}) },
    qrels: [{ repo: `clarin-knext/${name}-pl-qrels`, path: 'test.tsv', format: 'tsv', split: 'test' }],
  },
  format: 'jsonl.gz + tsv',
  licence: 'CC-BY-SA-4.0',
  licenceNote: 'A translation of the BEIR dataset: the original dataset\'s terms apply as well.',
  approxBytes: corpusBytes + queriesBytes + 50_000,
  docs,
  queries,
  language: 'pl',
  splits: ['test'],
  notes: `Machine translation of ${display} into Polish. The English analyzer does not suit Polish text: compare analyzers.`,
}));

import type { CatalogEntry } from './catalog.ts';

/**
 * NanoBEIR (Zeta Alpha, 2024): 13 BEIR datasets cut down to 50 queries and a corpus of at most ~5k
 * documents (every judged document plus BM25 and dense negatives), for quick evaluation. Each repository
 * `zeta-alpha-ai/Nano<Name>` holds three parquet files (one split, named `train`):
 * `corpus/train-00000-of-00001.parquet` (`_id`, `text`; no title), `queries/train-00000-of-00001.parquet`
 * (`_id`, `text`) and `qrels/train-00000-of-00001.parquet` (`query-id`, `corpus-id`; no score: every pair
 * is relevant, grade 1).
 *
 * Read from: huggingface.co/datasets/zeta-alpha-ai/NanoSciFact (README at 309f1d1: 2,919 docs, download
 * 2.41 MB; 50 queries, 5.48 kB; 56 qrels, 2.08 kB), NanoNFCorpus viewer (2.95k docs, 2.52k qrels),
 * NanoSCIDOCS/tree/8e1f06b/corpus (1.27 MB), and the repository list of sentence-transformers'
 * NanoBEIREvaluator (`dataset_paths`). Sizes of the other subsets were not read: estimated at 2 MB.
 * Licence: cc-by-4.0 (repository cards).
 *
 * The hub's single split is the evaluation set (NanoBEIREvaluator evaluates on it), so it is stored as
 * `test`, the split the app opens by default.
 */

const SUBSETS: ReadonlyArray<[repoName: string, id: string, name: string, corpusBytes: number | undefined, docs: number | undefined]> = [
  ['NanoArguAna', 'arguana', 'ArguAna', undefined, undefined],
  ['NanoClimateFEVER', 'climate-fever', 'Climate-FEVER', undefined, undefined],
  ['NanoDBPedia', 'dbpedia', 'DBPedia', undefined, undefined],
  ['NanoFEVER', 'fever', 'FEVER', undefined, undefined],
  ['NanoFiQA2018', 'fiqa', 'FiQA-2018', undefined, undefined],
  ['NanoHotpotQA', 'hotpotqa', 'HotpotQA', undefined, undefined],
  ['NanoMSMARCO', 'msmarco', 'MS MARCO', undefined, undefined],
  ['NanoNFCorpus', 'nfcorpus', 'NFCorpus', undefined, 2_953],
  ['NanoNQ', 'nq', 'NQ', undefined, undefined],
  ['NanoQuoraRetrieval', 'quora', 'Quora', undefined, undefined],
  ['NanoSCIDOCS', 'scidocs', 'SciDocs', 1_270_000, undefined],
  ['NanoSciFact', 'scifact', 'SciFact', 2_408_011, 2_919],
  ['NanoTouche2020', 'touche2020', 'Touché-2020', undefined, undefined],
];

const PARQUET = 'train-00000-of-00001.parquet';
const ESTIMATED_CORPUS_BYTES = 2_000_000;

export const NANOBEIR_ENTRIES: readonly CatalogEntry[] = SUBSETS.map(([repoName, id, name, corpusBytes, docs]) => {
  const repo = `zeta-alpha-ai/${repoName}`;
  return {
    id: `nanobeir/${id}`,
    name: `NanoBEIR ${name}`,
    family: 'nanobeir',
    files: {
      corpus: { repo, path: `corpus/${PARQUET}`, format: 'parquet', ...(corpusBytes === undefined ? {} : { bytes: corpusBytes }) },
      queries: { repo, path: `queries/${PARQUET}`, format: 'parquet', ...(repoName === 'NanoSciFact' ? { bytes: 5_482 } : {}) },
      qrels: [{ repo, path: `qrels/${PARQUET}`, format: 'parquet', split: 'test', ...(repoName === 'NanoSciFact' ? { bytes: 2_082 } : {}) }],
    },
    format: 'parquet',
    licence: 'CC-BY-4.0',
    approxBytes: (corpusBytes ?? ESTIMATED_CORPUS_BYTES) + 10_000,
    ...(docs === undefined ? {} : { docs }),
    queries: 50,
    language: 'en',
    splits: ['test'],
    notes: `50 ${name} queries over a reduced corpus (no titles); binary judgments. The hub's only split ("train") is stored as test.`,
  };
});

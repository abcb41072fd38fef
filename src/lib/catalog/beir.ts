import type { CatalogEntry, QrelsFile } from './catalog.ts';

/**
 * BEIR (Thakur et al., 2021) on the Hugging Face hub: `BeIR/<name>` holds `corpus.jsonl.gz` and
 * `queries.jsonl.gz` at the root; the judgments are in a separate repository `BeIR/<name>-qrels` as
 * `<split>.tsv` with the header `query-id corpus-id score`.
 *
 * Layouts and sizes read from the hub's file listings (2025):
 * - huggingface.co/datasets/BeIR/scifact/tree/main: corpus.jsonl.gz 2.76 MB, queries.jsonl.gz 49.3 kB;
 *   BeIR/scifact-qrels/tree/main: test.tsv 5.39 kB, train.tsv 14.5 kB.
 * - BeIR/nfcorpus: corpus.jsonl.gz 1.98 MB, queries.jsonl.gz 79.1 kB; BeIR/nfcorpus-qrels: dev.tsv 258 kB,
 *   test.tsv 280 kB, train.tsv 2.5 MB.
 * - BeIR/arguana (tree b93ced3): corpus.jsonl.gz 3.15 MB, queries.jsonl.gz 618 kB.
 * - BeIR/scidocs/tree/main: corpus.jsonl.gz 140 MB, queries.jsonl.gz 1.74 MB.
 * - BeIR/fiqa (tree e318552): corpus.jsonl.gz 17.7 MB, queries.jsonl.gz 194 kB.
 * - BeIR/trec-covid/tree/main: corpus.jsonl.gz 73.5 MB, queries.jsonl.gz 4.7 kB.
 * - BeIR/quora (tree 3c93f3a): corpus.jsonl.gz 15.3 MB, queries.jsonl.gz 397 kB.
 * Sizes of the qrels files not listed above were not read; totals count them as small.
 * Counts: BEIR paper, Table 1 (papers/beir-benchmark.txt). The hub cards give cc-by-sa-4.0 for every BeIR
 * repository; the original datasets carry their own terms (licenceNote).
 *
 * Caveat: BeIR/nfcorpus merged a "Convert dataset to Parquet" change (commit 5c938c5); if `main` no longer
 * holds corpus.jsonl.gz, the download fails with the URL and HTTP status, and the entry needs a `revision`.
 */

function qrels(name: string, splits: Array<[string, number | undefined]>): QrelsFile[] {
  return splits.map(([split, bytes]) => ({
    repo: `BeIR/${name}-qrels`,
    path: `${split}.tsv`,
    format: 'tsv' as const,
    split,
    ...(bytes === undefined ? {} : { bytes }),
  }));
}

function beir(
  name: string,
  display: string,
  sizes: { corpus: number; queries: number },
  splits: Array<[string, number | undefined]>,
  extra: Pick<CatalogEntry, 'docs' | 'queries' | 'notes' | 'licenceNote'>,
): CatalogEntry {
  const qrelsFiles = qrels(name, splits);
  const qrelsBytes = qrelsFiles.reduce((sum, file) => sum + (file.bytes ?? 50_000), 0);
  return {
    id: `beir/${name}`,
    name: display,
    family: 'beir',
    files: {
      corpus: { repo: `BeIR/${name}`, path: 'corpus.jsonl.gz', format: 'jsonl', bytes: sizes.corpus },
      queries: { repo: `BeIR/${name}`, path: 'queries.jsonl.gz', format: 'jsonl', bytes: sizes.queries },
      qrels: qrelsFiles,
    },
    format: 'jsonl.gz + tsv',
    licence: 'CC-BY-SA-4.0',
    approxBytes: sizes.corpus + sizes.queries + qrelsBytes,
    language: 'en',
    splits: splits.map(([split]) => split),
    ...extra,
  };
}

export const BEIR_ENTRIES: readonly CatalogEntry[] = [
  beir('scifact', 'SciFact', { corpus: 2_760_000, queries: 49_300 }, [['test', 5_390], ['train', 14_500]], {
    docs: 5_183,
    queries: 1_109,
    licenceNote: 'SciFact: claims CC BY 4.0, abstracts ODC-By 1.0.',
    notes: 'Scientific claims against paper abstracts; 300 test queries, 809 train. The classic small BEIR set.',
  }),
  beir('nfcorpus', 'NFCorpus', { corpus: 1_980_000, queries: 79_100 }, [['test', 280_000], ['dev', 258_000], ['train', 2_500_000]], {
    docs: 3_633,
    queries: 3_237,
    licenceNote: 'NFCorpus (Boteva et al., 2016): for research use; check the original terms.',
    notes: 'Nutrition questions against medical articles; graded judgments (0–2). 323 test queries.',
  }),
  beir('arguana', 'ArguAna', { corpus: 3_150_000, queries: 618_000 }, [['test', undefined]], {
    docs: 8_674,
    queries: 1_406,
    notes: 'Counter-argument retrieval: each query is an argument whose own text is in the corpus (remove hits equal to the query id, as Pyserini does).',
  }),
  beir('scidocs', 'SciDocs', { corpus: 140_000_000, queries: 1_740_000 }, [['test', undefined]], {
    docs: 25_657,
    queries: 1_000,
    notes: 'Citation prediction on paper titles and abstracts. A 140 MB download.',
  }),
  beir('fiqa', 'FiQA-2018', { corpus: 17_700_000, queries: 194_000 }, [['test', undefined], ['dev', undefined], ['train', undefined]], {
    docs: 57_638,
    queries: 6_648,
    notes: 'Financial opinion questions and answers; 648 test queries.',
  }),
  beir('trec-covid', 'TREC-COVID', { corpus: 73_500_000, queries: 4_700 }, [['test', undefined]], {
    docs: 171_332,
    queries: 50,
    licenceNote: 'CORD-19 documents: their own licence terms (see the CORD-19 dataset).',
    notes: '50 topics with deep graded judgments (0–2) over 171k CORD-19 abstracts. A 74 MB download; indexing takes a while.',
  }),
  beir('quora', 'Quora', { corpus: 15_300_000, queries: 397_000 }, [['test', undefined], ['dev', undefined]], {
    docs: 522_931,
    queries: 15_000,
    licenceNote: 'Quora Question Pairs: the BEIR paper found no licence stated for the original; check Quora’s terms.',
    notes: 'Duplicate-question retrieval: 10,000 test and 5,000 dev questions against 523k short questions.',
  }),
];

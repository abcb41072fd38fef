import type { CatalogEntry } from './catalog.ts';

/**
 * CQADupStack (Hoogeveen et al., 2015) as BEIR uses it: twelve StackExchange subforums, each its own
 * collection (BEIR averages nDCG@10 over them). BEIR's zip keeps them as folders `cqadupstack/<forum>/`;
 * on the hub:
 * - judgments: `BeIR/cqadupstack-qrels` holds one folder per subforum with `test.tsv`
 *   (huggingface.co/datasets/BeIR/cqadupstack-qrels/commit/2b9f579: android/test.tsv … wordpress/test.tsv;
 *   android/test.tsv is 24.8 kB);
 * - texts: BeIR has no corpus repository for it; `mteb/cqadupstack-<forum>` holds the BEIR files
 *   `corpus.jsonl` and `queries.jsonl` uncompressed (README of mteb/cqadupstack-android at 789b40e:
 *   configs corpus → corpus.jsonl, queries → queries.jsonl; 22,998 docs, 14.0 MB; 699 queries).
 * Documents and queries per subforum: BEIR paper Table 1 / MTEB cards (they add up to BEIR's 457,199 and
 * 13,145). Sizes other than android's are estimated from android's bytes per document.
 */

const FORUMS: ReadonlyArray<[forum: string, name: string, docs: number, queries: number]> = [
  ['android', 'Android', 22_998, 699],
  ['english', 'English', 40_221, 1_570],
  ['gaming', 'Gaming', 45_301, 1_595],
  ['gis', 'GIS', 37_637, 885],
  ['mathematica', 'Mathematica', 16_705, 804],
  ['physics', 'Physics', 38_316, 1_039],
  ['programmers', 'Programmers', 32_176, 876],
  ['stats', 'Stats', 42_269, 652],
  ['tex', 'TeX', 68_184, 2_906],
  ['unix', 'Unix', 47_382, 1_072],
  ['webmasters', 'Webmasters', 17_405, 506],
  ['wordpress', 'WordPress', 48_605, 541],
];

/** android: 14,044,469 bytes for 22,998 documents. */
const BYTES_PER_DOC = 14_044_469 / 22_998;

export const CQADUPSTACK_ENTRIES: readonly CatalogEntry[] = FORUMS.map(([forum, name, docs, queries]) => {
  const corpusBytes = Math.round(docs * BYTES_PER_DOC);
  return {
    id: `cqadupstack/${forum}`,
    name: `CQADupStack ${name}`,
    family: 'cqadupstack',
    files: {
      corpus: { repo: `mteb/cqadupstack-${forum}`, path: 'corpus.jsonl', format: 'jsonl', ...(forum === 'android' ? { bytes: 14_044_469 } : {}) },
      queries: { repo: `mteb/cqadupstack-${forum}`, path: 'queries.jsonl', format: 'jsonl' },
      qrels: [{ repo: 'BeIR/cqadupstack-qrels', path: `${forum}/test.tsv`, format: 'tsv', split: 'test', ...(forum === 'android' ? { bytes: 24_800 } : {}) }],
    },
    format: 'jsonl + tsv',
    licence: 'CC-BY-SA-4.0',
    licenceNote: 'StackExchange content is CC BY-SA; the mteb repository card says apache-2.0 for its packaging.',
    approxBytes: corpusBytes + queries * 70 + 25_000,
    docs,
    queries,
    language: 'en',
    splits: ['test'],
    notes: `Duplicate-question retrieval in the ${name} StackExchange subforum; every query is judged in test.`,
  };
});

/**
 * The BEIR-paper analyses of the evaluated columns (computed in the page from the stored runs):
 * - lengths of the documents each column puts in its top 10, over every evaluated query, next to the
 *   corpus's (in words: src/lib/run-analysis/document-lengths.ts);
 * - overlap of every pair of columns' top 10 (Jaccard, RBO p 0.9), per query and averaged.
 *
 * The corpus's lengths are read once per collection import (the documents in batches from IndexedDB, with
 * progress), the runs once per evaluation key; both are kept for the page's life.
 */
import {
  binLabels,
  lengthBins,
  lengthHistogram,
  retrievedLengths,
  shareBelow,
  summarizeLengths,
  wordCount,
  type LengthBins,
  type LengthSummary,
} from '../../../lib/run-analysis/document-lengths.ts';
import { compareTrecHits } from '../../../lib/hits/trec-order.ts';
import { overlapMatrix, type OverlapMatrix } from '../../../lib/run-analysis/overlap-matrix.ts';
import { readDocumentBatches } from '../../../lib/storage/collections.ts';
import { database } from '../../../lib/storage/db.ts';
import { hitsOf, type RankedRun } from '../../../lib/hits/row-ranking.ts';
import type { Run } from '../../../lib/types.ts';
import { evaluations } from '../evaluations.svelte.ts';

export const ANALYSIS_DEPTH = 10;

export interface AnalysisColumn {
  /** 0-based position among the Explore columns. */
  index: number;
  label: string;
  /** The evaluation key of its stored run. */
  key: string;
}

export interface AnalysisInput {
  collectionId: string;
  collectionVersion: number;
  columns: readonly AnalysisColumn[];
  /** The evaluated queries (the split's judged ones), in the dashboard's order. */
  queryIds: readonly string[];
}

export interface LengthDistribution {
  label: string;
  summary: LengthSummary;
  /** Share of documents per bin. */
  shares: number[];
  /** Share of documents shorter than the corpus's median length. */
  belowCorpusMedian: number;
  /** Top-10 documents the corpus does not hold (an imported run's foreign ids). */
  unknown: number;
}

export interface RunAnalysisResult {
  columns: readonly AnalysisColumn[];
  bins: LengthBins;
  binLabels: string[];
  corpus: LengthDistribution;
  perColumn: LengthDistribution[];
  overlap: OverlapMatrix;
  queryIds: readonly string[];
}

export interface AnalysisProgress {
  phase: 'reading documents' | 'reading runs' | 'computing';
  done: number;
  total: number | undefined;
}

/**
 * A run's rankings in trec_eval's order (score descending, ties by decreasing document id), the order its
 * metrics and its exported TREC file use; a stored run keeps the engine's order, which may break ties
 * otherwise, and the top 10 of the analyses must be the top 10 the measures see.
 */
export function inTrecOrder(run: RankedRun): Run {
  return new Map([...run].map(([qid, hits]) => [qid, [...hitsOf(hits)].sort(compareTrecHits)]));
}

/** The analysis of `runs` (aligned with `columns`) given every document's length. */
export function analyzeRuns(
  columns: readonly AnalysisColumn[],
  stored: readonly RankedRun[],
  lengths: ReadonlyMap<string, number>,
  queryIds: readonly string[],
): RunAnalysisResult {
  const runs = stored.map(inTrecOrder);
  const corpusLengths = [...lengths.values()];
  const bins = lengthBins(corpusLengths);
  const corpusSummary = summarizeLengths(corpusLengths);
  const perColumn = columns.map((column, i) => {
    const { lengths: top, unknown } = retrievedLengths(runs[i]!, (docId) => lengths.get(docId), { depth: ANALYSIS_DEPTH, queryIds });
    return { label: column.label, summary: summarizeLengths(top), shares: lengthHistogram(top, bins), belowCorpusMedian: shareBelow(top, corpusSummary.median), unknown };
  });
  return {
    columns,
    bins,
    binLabels: binLabels(bins),
    corpus: {
      label: 'Corpus',
      summary: corpusSummary,
      shares: lengthHistogram(corpusLengths, bins),
      belowCorpusMedian: shareBelow(corpusLengths, corpusSummary.median),
      unknown: 0,
    },
    perColumn,
    overlap: overlapMatrix(runs, { depth: ANALYSIS_DEPTH, queryIds }),
    queryIds,
  };
}

class RunAnalyses {
  result = $state.raw<RunAnalysisResult | undefined>(undefined);
  progress = $state.raw<AnalysisProgress | null>(null);
  error = $state<string | undefined>(undefined);
  #lengths: { corpus: string; lengths: Map<string, number> } | undefined;
  #runs = new Map<string, RankedRun>();
  #generation = 0;

  /** Computes the analyses of these columns (a later call supersedes an earlier one still running). */
  async compute(input: AnalysisInput): Promise<void> {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.error = undefined;
    try {
      const lengths = await this.#corpusLengths(input, current);
      if (!current()) return;
      const runs: RankedRun[] = [];
      for (const [i, column] of input.columns.entries()) {
        this.progress = { phase: 'reading runs', done: i, total: input.columns.length };
        let run = this.#runs.get(column.key);
        if (run === undefined) {
          run = await evaluations.runOf(column.key);
          this.#runs.set(column.key, run);
        }
        if (!current()) return;
        runs.push(run);
      }
      this.progress = { phase: 'computing', done: 0, total: undefined };
      // Let the progress line paint before the (synchronous) computation.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (!current()) return;
      this.result = analyzeRuns(input.columns, runs, lengths, input.queryIds);
    } catch (error) {
      if (current()) this.error = error instanceof Error ? error.message : String(error);
    } finally {
      if (current()) this.progress = null;
    }
  }

  /** Forgets the result shown (another collection or split). */
  clear(): void {
    this.#generation += 1;
    this.result = undefined;
    this.progress = null;
    this.error = undefined;
  }

  async #corpusLengths(input: AnalysisInput, current: () => boolean): Promise<Map<string, number>> {
    const corpus = `${input.collectionId}@${input.collectionVersion}`;
    if (this.#lengths?.corpus === corpus) return this.#lengths.lengths;
    const total = (await database().collections.get(input.collectionId))?.docCount;
    const lengths = new Map<string, number>();
    this.progress = { phase: 'reading documents', done: 0, total };
    for await (const rows of readDocumentBatches(database(), input.collectionId)) {
      for (const row of rows) lengths.set(row.id, wordCount(row.title, row.text));
      if (!current()) return lengths;
      this.progress = { phase: 'reading documents', done: lengths.size, total };
    }
    this.#lengths = { corpus, lengths };
    return lengths;
  }
}

export const runAnalyses = new RunAnalyses();

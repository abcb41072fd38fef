/** What the Tune panel offers: each parameter's grid to start from, and the measures it can maximize. */
import { REPORT_MEASURES } from '../../../lib/eval/run-report.ts';
import type { RetrieverConfig } from '../../../lib/retrievers/config.ts';
import type { TuneParam } from '../../../lib/tuning/params.ts';

export interface AxisDraft {
  from: string;
  to: string;
  step: string;
}

/** A parameter's usual grid (ranx's step 0.1 for weights; Anserini's sweeps for BM25 and RM3). */
export function defaultAxis(kind: RetrieverConfig['kind'], name: TuneParam): AxisDraft {
  const grid = (from: number, to: number, step: number): AxisDraft => ({ from: String(from), to: String(to), step: String(step) });
  switch (name) {
    case 'alpha':
      return grid(0, 1, 0.1);
    case 'k':
      return kind === 'ledr' ? grid(100, 1000, 100) : grid(10, 100, 10);
    case 'k1':
      return grid(0.5, 1.5, 0.1);
    case 'b':
      return grid(0.2, 1, 0.1);
    case 'fb-terms':
      return grid(5, 30, 5);
    case 'fb-docs':
      return grid(1, 10, 1);
    case 'orig-weight':
      return grid(0.1, 0.9, 0.1);
    case 'depth':
      return grid(10, 100, 10);
    case 'ef-search':
      return grid(32, 256, 32);
  }
}

/** The dashboard's measures a tune can maximize as they are (MRR@10 needs -M 10, which a tune does not apply). */
export const TUNE_MEASURES = REPORT_MEASURES.filter((measure) => measure.maxDocs === undefined).map((measure) => ({ name: measure.trecEvalName, label: measure.label }));

import type { GainParam } from './ndcg.ts';

/**
 * Measure names as trec_eval 9.0.8 spells them on its command line (`-m name[.params]`, trec_eval.c
 * `mark_measure`, meas_init.c), plus BEIR's `R_cap` and `Hole`:
 * - cutoff measures take comma-separated cutoffs, read with C `atol` (so `23.4` is 23), sorted
 *   increasingly, positive and without duplicates (meas_init.c `get_long_cutoffs`); each cutoff is a
 *   value printed as `<name>_<k>`, in increasing k whatever the command-line order (`P.5,7,3` prints
 *   P_3, P_5, P_7);
 * - `ndcg` takes `level=gain` pairs (`ndcg.1=3,2=9,4=4.5`) and is printed with its parameter string
 *   (`ndcg_1=3,2=9,4=4.5`);
 * - a nickname (`official`, `all_trec`) stands for a list of measures; only the supported ones are kept;
 * - whatever the order of `-m` options, values are printed in trec_eval's fixed measure order
 *   (measures.c `te_trec_measures`), which {@link MEASURE_FAMILIES} follows.
 */

/** Supported measure families, in trec_eval's output order (BEIR's two last). */
export const MEASURE_FAMILIES = [
  'runid',
  'num_q',
  'num_ret',
  'num_rel',
  'num_rel_ret',
  'map',
  'Rprec',
  'recip_rank',
  'P',
  'recall',
  'ndcg',
  'ndcg_cut',
  'map_cut',
  'success',
  'R_cap',
  'Hole',
] as const;

export type MeasureFamily = (typeof MEASURE_FAMILIES)[number];
export type CountFamily = 'num_q' | 'num_ret' | 'num_rel' | 'num_rel_ret';
export type ScalarFamily = 'map' | 'Rprec' | 'recip_rank';
export type CutoffFamily = 'P' | 'recall' | 'ndcg_cut' | 'map_cut' | 'success' | 'R_cap' | 'Hole';

export type MeasureSpec =
  | { family: 'runid' }
  | { family: CountFamily }
  | { family: ScalarFamily }
  | { family: CutoffFamily; cutoffs: readonly number[] }
  | {
      family: 'ndcg';
      gains: readonly GainParam[];
      /** The parameter text as given, which trec_eval appends to the printed name. */
      params?: string;
    };

const COUNT_FAMILIES: ReadonlySet<string> = new Set<CountFamily>(['num_q', 'num_ret', 'num_rel', 'num_rel_ret']);
const SCALAR_FAMILIES: ReadonlySet<string> = new Set<ScalarFamily>(['map', 'Rprec', 'recip_rank']);
const CUTOFF_FAMILIES: ReadonlySet<string> = new Set<CutoffFamily>(['P', 'recall', 'ndcg_cut', 'map_cut', 'success', 'R_cap', 'Hole']);

const TREC_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
/** Default cutoffs: m_P.c, m_recall.c, m_ndcg_cut.c, m_map_cut.c, m_success.c; BEIR's k_values. */
export const DEFAULT_CUTOFFS: Readonly<Record<CutoffFamily, readonly number[]>> = {
  P: TREC_CUTOFFS,
  recall: TREC_CUTOFFS,
  ndcg_cut: TREC_CUTOFFS,
  map_cut: TREC_CUTOFFS,
  success: [1, 5, 10],
  R_cap: [1, 3, 5, 10, 100, 1000],
  Hole: [1, 3, 5, 10, 100, 1000],
};

/** trec_eval's nicknames (measures.c `off_names`, `trec_names`), as full lists including unsupported names. */
export const MEASURE_NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  official: ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank', 'iprec_at_recall', 'P'],
  all_trec: [
    'runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank',
    'iprec_at_recall', 'P', 'relstring', 'recall', 'infAP', 'gm_bpref', 'utility', '11pt_avg', 'ideal_dcg', 'dcg',
    'ndcg', 'relative_P', 'Rprec_mult', 'success', 'map_cut', 'ndcg_cut', 'ndcg_rel', 'Rndcg', 'binG', 'G',
    'set_P', 'set_recall', 'set_relative_P', 'set_map', 'set_F', 'num_nonrel_judged_ret',
  ],
};

/** A measure string that trec_eval would refuse, or that this implementation does not support. */
export class MeasureError extends Error {
  override readonly name = 'MeasureError';
}

export function isMeasureFamily(name: string): name is MeasureFamily {
  return (MEASURE_FAMILIES as readonly string[]).includes(name);
}

/**
 * Parses one trec_eval measure string (`ndcg_cut.10,20`, `P`, `ndcg.1=3,2=9`, `R_cap@10`, `R_cap.1,10`).
 * Nicknames are not accepted here (see {@link resolveMeasures}). Throws {@link MeasureError}.
 */
export function parseMeasure(text: string): MeasureSpec {
  const { name, params } = splitMeasure(text);
  if (!isMeasureFamily(name)) {
    throw new MeasureError(`unsupported measure '${name}' (supported: ${MEASURE_FAMILIES.join(', ')})`);
  }
  if (params === '') throw new MeasureError(`improper measure '${text}': empty parameter list after the name`);
  if (name === 'ndcg') {
    return params === undefined ? { family: 'ndcg', gains: [] } : { family: 'ndcg', gains: parseGainPairs(text, params), params };
  }
  if (CUTOFF_FAMILIES.has(name)) {
    const family = name as CutoffFamily;
    return { family, cutoffs: params === undefined ? DEFAULT_CUTOFFS[family] : parseCutoffs(text, params) };
  }
  if (params !== undefined) throw new MeasureError(`measure '${name}' takes no parameters (got '${text}')`);
  if (COUNT_FAMILIES.has(name)) return { family: name as CountFamily };
  if (SCALAR_FAMILIES.has(name)) return { family: name as ScalarFamily };
  return { family: 'runid' };
}

/** Name and parameters split at the first '.', as trec_eval does; BEIR's `R_cap@10` / `Hole@10` too. */
function splitMeasure(text: string): { name: string; params: string | undefined } {
  const beir = /^(R_cap|Hole)@(.*)$/.exec(text);
  if (beir) return { name: beir[1]!, params: beir[2]! };
  const dot = text.indexOf('.');
  return dot === -1 ? { name: text, params: undefined } : { name: text.slice(0, dot), params: text.slice(dot + 1) };
}

/** C `atol`: optional leading whitespace and sign, then digits up to the first non-digit; 0 if none. */
export function atol(text: string): number {
  const match = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(text);
  return match ? Number.parseInt(match[1]!, 10) : 0;
}

function parseCutoffs(text: string, params: string): number[] {
  const cutoffs = params.split(',').map(atol).sort((a, b) => a - b);
  if (cutoffs[0]! <= 0) throw new MeasureError(`measure '${text}': cutoffs must be positive integers`);
  for (let i = 1; i < cutoffs.length; i++) {
    if (cutoffs[i] === cutoffs[i - 1]) throw new MeasureError(`measure '${text}': duplicate cutoff ${cutoffs[i]}`);
  }
  return cutoffs;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `level=gain,…` (meas_init.c `get_param_pairs`); levels must be integers, gains numbers. */
function parseGainPairs(text: string, params: string): GainParam[] {
  return params.split(',').map((pair) => {
    const match = /^([+-]?\d+)=(.*)$/.exec(pair);
    if (!match || !NUMBER.test(match[2]!)) {
      throw new MeasureError(`measure '${text}': expected level=gain pairs such as ndcg.1=3,2=9 (got '${pair}')`);
    }
    return { level: Number.parseInt(match[1]!, 10), gain: Number(match[2]!) };
  });
}

/** Printed names of a measure's values, in output order (`P_5`, `ndcg_1=3,2=9`, `map`). */
export function measureNames(spec: MeasureSpec): string[] {
  switch (spec.family) {
    case 'ndcg':
      return [spec.params === undefined ? 'ndcg' : `ndcg_${spec.params}`];
    case 'P':
    case 'recall':
    case 'ndcg_cut':
    case 'map_cut':
    case 'success':
    case 'R_cap':
    case 'Hole':
      return spec.cutoffs.map((k) => `${spec.family}_${k}`);
    default:
      return [spec.family];
  }
}

export interface ResolvedMeasures {
  /** One spec per family, in trec_eval's output order. */
  measures: MeasureSpec[];
  /** Names a nickname stands for that are not implemented here (reported, not computed). */
  skipped: string[];
}

/**
 * The measures a list of `-m` arguments selects, the way trec_eval combines them: nicknames expand;
 * a family given several times is computed once, with the parameters of the FIRST occurrence that has
 * parameters (trec_eval's `init_meas` looks up the first matching `name.params` argument), else its
 * defaults; output follows {@link MEASURE_FAMILIES} order. Unknown names throw {@link MeasureError}.
 */
export function resolveMeasures(args: ReadonlyArray<string | MeasureSpec>): ResolvedMeasures {
  const chosen = new Map<MeasureFamily, MeasureSpec>();
  const parameterized = new Set<MeasureFamily>();
  const skipped: string[] = [];
  const add = (spec: MeasureSpec, hasParams: boolean) => {
    if (hasParams) {
      if (parameterized.has(spec.family)) return;
      parameterized.add(spec.family);
      chosen.set(spec.family, spec);
    } else if (!chosen.has(spec.family)) {
      chosen.set(spec.family, spec);
    }
  };
  for (const arg of args) {
    if (typeof arg !== 'string') {
      add(arg, true);
      continue;
    }
    const nickname = MEASURE_NICKNAMES[arg];
    if (nickname) {
      for (const name of nickname) {
        if (isMeasureFamily(name)) add(parseMeasure(name), false);
        else if (!skipped.includes(name)) skipped.push(name);
      }
      continue;
    }
    add(parseMeasure(arg), splitMeasure(arg).params !== undefined);
  }
  const measures = MEASURE_FAMILIES.flatMap((family) => {
    const spec = chosen.get(family);
    return spec ? [spec] : [];
  });
  return { measures, skipped };
}

import { formatFixed } from '../data/c-format.ts';
import type { GainParam } from './ndcg.ts';
import { PREFS_MEASURES } from './prefs-measures.ts';

/**
 * Measure names as trec_eval 9.0.8 spells them on its command line (`-m name[.params]`, trec_eval.c
 * `mark_measure`, meas_init.c), plus BEIR's `R_cap` and `Hole` and Pyserini's `judged` (`-m judged.10`). {@link MEASURE_DEFINITIONS} is the one
 * table of measures: their output order (measures.c `te_trec_measures`), the kind of parameters each takes,
 * how its value is printed and how it is summarized. Adding a measure is one row here and one kernel in
 * evaluate.ts. Parameter forms (meas_init.c):
 * - `cutoffs` (P, recall, ndcg_cut, …): comma-separated integers read with C `atol` (so `23.4` is 23),
 *   sorted increasingly, positive and without duplicates; each value is printed as `<name>_<k>`;
 * - `fractions` (iprec_at_recall, Rprec_mult): comma-separated numbers read with `atof`, sorted, without
 *   duplicates; printed as `<name>_<%3.2f>` (`iprec_at_recall_0.25`);
 * - `numbers` (utility, 11pt_avg, set_F, relstring): `atof` numbers kept in the order given, one value
 *   printed with the parameter text appended (`utility_2,-1,0,0`, `11pt_avg_.25,.5,.75`);
 * - `gains` (ndcg, G, ndcg_rel, Rndcg): `level=gain` pairs (`ndcg.1=3,2=9,4=4.5`), one value printed with
 *   the parameter text appended (`ndcg_1=3,2=9,4=4.5`);
 * - a nickname (`official`, `all_trec`, `set`, …) stands for a list of measures; only the supported ones
 *   are kept, the others reported;
 * - whatever the order of `-m` options, values are printed in the table's order.
 */

export type ParamKind = 'none' | 'cutoffs' | 'fractions' | 'numbers' | 'gains';

/**
 * How the "all" row is formed from the per-query values (meas_avg.c and the measures' own `calc_avg`):
 * `mean` over the evaluated queries (all qrels queries under -c), `sum`, `geometric` mean (the per-query
 * value is log(max(v, 1e-5)); the summary exp of its mean), `count` of queries (num_q), or `none`.
 */
export type SummaryKind = 'mean' | 'sum' | 'geometric' | 'count' | 'none';

export interface MeasureDefinition {
  name: string;
  params: ParamKind;
  /** Default parameters (cutoffs, fractions or numbers) when `-m name` has none. */
  defaults?: readonly number[];
  /** `integer`: printed `%ld`; `text`: a string per query (relstring); else `%6.4f`. */
  value: 'float' | 'integer' | 'text';
  /** Printed in the per-query (-q) rows. */
  perQuery: boolean;
  summary: SummaryKind;
  /**
   * The judgments it needs: ordinary qrels, judgment groups (`-R qrels_jg`: the value is averaged over the
   * groups of the query), preferences (`-R prefs` or `-R qrels_prefs`), or any (runid, num_q).
   */
  input?: 'qrels' | 'qrels_jg' | 'prefs' | 'any';
}

const TREC_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
const RECALL_POINTS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const BEIR_CUTOFFS = [1, 3, 5, 10, 100, 1000];

const mean = (name: string, params: ParamKind = 'none', defaults?: readonly number[]): MeasureDefinition => ({
  name,
  params,
  ...(defaults === undefined ? {} : { defaults }),
  value: 'float',
  perQuery: true,
  summary: 'mean',
});
const count = (name: string, summary: SummaryKind = 'sum'): MeasureDefinition => ({ name, params: 'none', value: 'integer', perQuery: true, summary });

/**
 * Every supported measure, in trec_eval 9.0.8's output order (measures.c), then BEIR's two, then
 * Pyserini's `judged` (judged.ts; Pyserini also prints it after trec_eval's lines). No nickname includes the
 * three, so `-m all_trec` and the others print exactly trec_eval's lines.
 */
export const MEASURE_DEFINITIONS: readonly MeasureDefinition[] = [
  { name: 'runid', params: 'none', value: 'text', perQuery: false, summary: 'none', input: 'any' },
  { name: 'num_q', params: 'none', value: 'integer', perQuery: false, summary: 'count', input: 'any' },
  count('num_ret'),
  count('num_rel'),
  count('num_rel_ret'),
  mean('map'),
  { name: 'gm_map', params: 'none', value: 'float', perQuery: false, summary: 'geometric' },
  mean('Rprec'),
  mean('bpref'),
  mean('recip_rank'),
  mean('iprec_at_recall', 'fractions', RECALL_POINTS),
  mean('P', 'cutoffs', TREC_CUTOFFS),
  { name: 'relstring', params: 'numbers', defaults: [10], value: 'text', perQuery: true, summary: 'none' },
  mean('recall', 'cutoffs', TREC_CUTOFFS),
  mean('infAP'),
  { name: 'gm_bpref', params: 'none', value: 'float', perQuery: false, summary: 'geometric' },
  mean('Rprec_mult', 'fractions', [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2]),
  mean('utility', 'numbers', [1, -1, 0, 0]),
  mean('11pt_avg', 'numbers', RECALL_POINTS),
  mean('binG'),
  mean('G', 'gains'),
  mean('ndcg', 'gains'),
  mean('ndcg_rel', 'gains'),
  mean('Rndcg', 'gains'),
  mean('ndcg_cut', 'cutoffs', TREC_CUTOFFS),
  mean('map_cut', 'cutoffs', TREC_CUTOFFS),
  mean('relative_P', 'cutoffs', TREC_CUTOFFS),
  mean('success', 'cutoffs', [1, 5, 10]),
  mean('set_P'),
  mean('set_relative_P'),
  mean('set_recall'),
  mean('set_map'),
  mean('set_F', 'numbers', [1]),
  count('num_nonrel_judged_ret'),
  ...PREFS_MEASURES.map((name): MeasureDefinition => ({ ...(name.startsWith('prefs_num_') ? count(name) : mean(name)), input: 'prefs' })),
  { ...mean('map_avgjg'), input: 'qrels_jg' },
  { ...mean('P_avgjg', 'cutoffs', TREC_CUTOFFS), input: 'qrels_jg' },
  { ...mean('Rprec_mult_avgjg', 'fractions', [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2]), input: 'qrels_jg' },
  mean('yaap'),
  mean('R_cap', 'cutoffs', BEIR_CUTOFFS),
  mean('Hole', 'cutoffs', BEIR_CUTOFFS),
  mean('judged', 'cutoffs', [10]),
];

export type MeasureFamily = string;

const DEFINITIONS = new Map(MEASURE_DEFINITIONS.map((d) => [d.name, d]));
/** Supported measure names, in output order. */
export const MEASURE_FAMILIES: readonly string[] = MEASURE_DEFINITIONS.map((d) => d.name);

export interface MeasureSpec {
  family: MeasureFamily;
  /** `cutoffs` measures: positive integers, increasing. */
  cutoffs?: readonly number[];
  /** `fractions` (sorted) and `numbers` (as given) measures. */
  numbers?: readonly number[];
  /** `gains` measures: the level=gain pairs, in command-line order. */
  gains?: readonly GainParam[];
  /** The parameter text as given, which `numbers` and `gains` measures append to the printed name. */
  params?: string;
}

/** trec_eval's nicknames (measures.c), as full lists including names not supported here. */
const MEASURE_NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  official: ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank', 'iprec_at_recall', 'P'],
  set: ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'utility', 'set_P', 'set_recall', 'set_relative_P', 'set_map', 'set_F'],
  all_trec: [
    'runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank',
    'iprec_at_recall', 'P', 'relstring', 'recall', 'infAP', 'gm_bpref', 'utility', '11pt_avg', 'ndcg',
    'relative_P', 'Rprec_mult', 'success', 'map_cut', 'ndcg_cut', 'ndcg_rel', 'Rndcg', 'binG', 'G',
    'set_P', 'set_recall', 'set_relative_P', 'set_map', 'set_F', 'num_nonrel_judged_ret',
  ],
  all_prefs: [
    'runid', 'num_q', 'prefs_num_prefs_poss', 'prefs_num_prefs_ful', 'prefs_num_prefs_ful_ret', 'prefs_simp',
    'prefs_pair', 'prefs_avgjg', 'prefs_avgjg_Rnonrel', 'prefs_simp_ret', 'prefs_pair_ret', 'prefs_avgjg_ret',
    'prefs_avgjg_Rnonrel_ret', 'prefs_simp_imp', 'prefs_pair_imp', 'prefs_avgjg_imp',
  ],
  prefs: ['runid', 'num_q', 'prefs_num_prefs_poss', 'prefs_num_prefs_ful', 'prefs_num_prefs_ful_ret', 'prefs_simp', 'prefs_pair', 'prefs_avgjg'],
  qrels_jg: ['runid', 'num_q', 'map_avgjg', 'P_avgjg', 'Rprec_mult_avgjg'],
};

/** A measure string that trec_eval would refuse, or that this implementation does not support. */
export class MeasureError extends Error {
  override readonly name = 'MeasureError';
}

function isMeasureFamily(name: string): boolean {
  return DEFINITIONS.has(name);
}

export function measureDefinition(family: MeasureFamily): MeasureDefinition {
  const definition = DEFINITIONS.get(family);
  if (definition === undefined) throw new MeasureError(`unsupported measure '${family}'`);
  return definition;
}

/**
 * Parses one trec_eval measure string (`ndcg_cut.10,20`, `P`, `ndcg.1=3,2=9`, `R_cap@10`, `R_cap.1,10`).
 * Nicknames are not accepted here (see {@link resolveMeasures}). Throws {@link MeasureError}.
 */
export function parseMeasure(text: string): MeasureSpec {
  const { name, params } = splitMeasure(text);
  const definition = DEFINITIONS.get(name);
  if (definition === undefined) {
    throw new MeasureError(`unsupported measure '${name}' (supported: ${MEASURE_FAMILIES.join(', ')})`);
  }
  if (params === '') throw new MeasureError(`improper measure '${text}': empty parameter list after the name`);
  switch (definition.params) {
    case 'none':
      if (params !== undefined) throw new MeasureError(`measure '${name}' takes no parameters (got '${text}')`);
      return { family: name };
    case 'cutoffs':
      return { family: name, cutoffs: params === undefined ? definition.defaults! : parseCutoffs(text, params) };
    case 'fractions':
      return { family: name, numbers: params === undefined ? definition.defaults! : parseFractions(text, params) };
    case 'numbers':
      return params === undefined
        ? { family: name, numbers: definition.defaults! }
        : { family: name, numbers: params.split(',').map(atof), params };
    case 'gains':
      return params === undefined ? { family: name, gains: [] } : { family: name, gains: parseGainPairs(text, params), params };
  }
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

/** C `atof` for decimal numbers (and `nan`/`inf`): the longest numeric prefix, 0 if none. */
export function atof(text: string): number {
  const match = /^[ \t\n\v\f\r]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:nan|inf(?:inity)?))/i.exec(text);
  if (!match) return 0;
  const number = match[1]!.toLowerCase();
  if (number.endsWith('nan')) return Number.NaN;
  if (number.includes('inf')) return number.startsWith('-') ? -Infinity : Infinity;
  return Number(number);
}

function parseCutoffs(text: string, params: string): number[] {
  const cutoffs = params.split(',').map(atol).sort((a, b) => a - b);
  if (cutoffs[0]! <= 0) throw new MeasureError(`measure '${text}': cutoffs must be positive integers`);
  rejectDuplicates(text, cutoffs);
  return cutoffs;
}

function parseFractions(text: string, params: string): number[] {
  const values = params.split(',').map(atof).sort((a, b) => a - b);
  rejectDuplicates(text, values);
  return values;
}

function rejectDuplicates(text: string, sorted: readonly number[]): void {
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) throw new MeasureError(`measure '${text}': duplicate cutoff ${sorted[i]}`);
  }
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

/** Printed names of a measure's values, in output order (`P_5`, `ndcg_1=3,2=9`, `iprec_at_recall_0.10`). */
export function measureNames(spec: MeasureSpec): string[] {
  const definition = measureDefinition(spec.family);
  switch (definition.params) {
    case 'cutoffs':
      return spec.cutoffs!.map((k) => `${spec.family}_${k}`);
    case 'fractions':
      return spec.numbers!.map((x) => appendFloat(spec.family, x));
    case 'numbers':
    case 'gains':
      return [spec.params === undefined ? spec.family : `${spec.family}_${spec.params}`];
    case 'none':
      return [spec.family];
  }
}

/** meas_init.c `append_float`: `snprintf(buf, strlen(name) + 10, "%s_%3.2f")`, so at most 8 characters follow the '_'. */
function appendFloat(name: string, value: number): string {
  return `${name}_${formatFixed(value, 2).padStart(3)}`.slice(0, name.length + 9);
}

export interface ResolvedMeasures {
  /** One spec per family, in output order. */
  measures: MeasureSpec[];
  /** Names a nickname stands for that are not implemented here (reported, not computed). */
  skipped: string[];
}

/**
 * The measures a list of `-m` arguments selects, the way trec_eval combines them: nicknames expand;
 * a family given several times is computed once, with the parameters of the FIRST occurrence that has
 * parameters (trec_eval's `init_meas` looks up the first matching `name.params` argument), else its
 * defaults; output follows {@link MEASURE_DEFINITIONS} order. Unknown names throw {@link MeasureError}.
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

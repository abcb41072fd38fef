/**
 * The parameters a Tune grid can move, by retriever kind, named as the CLI's `eval` flags (`--alpha`,
 * `--k1`, `--fb-terms`, …; `k` is RRF's constant or LEDR's K, as the column labels call them), and a
 * configuration with a grid point's values put in.
 */
import type { FirstStageConfig, RetrieverConfig } from '../retrievers/config.ts';
import { GridError, type GridAxis, type GridParams } from './grid.ts';

export type TuneParam = 'alpha' | 'k' | 'k1' | 'b' | 'fb-terms' | 'fb-docs' | 'orig-weight' | 'depth' | 'ef-search';

interface ParamRule {
  /** What a value must be, for the message. */
  what: string;
  check: (value: number) => boolean;
  /**
   * True when changing it only re-fuses lists already ranked (convex α, RRF k): a grid point costs a fusion
   * and a measure, not a search.
   */
  fusionOnly: boolean;
}

const unit = (value: number) => value >= 0 && value <= 1;
const count = (value: number) => Number.isInteger(value) && value >= 0;
const positive = (value: number) => Number.isInteger(value) && value > 0;

const BM25_RULES = {
  k1: { what: 'a number ≥ 0', check: (value: number) => value >= 0, fusionOnly: false },
  b: { what: 'a number between 0 and 1', check: unit, fusionOnly: false },
} satisfies Partial<Record<TuneParam, ParamRule>>;

const FEEDBACK_RULES = {
  'fb-terms': { what: 'an integer ≥ 0', check: count, fusionOnly: false },
  'fb-docs': { what: 'an integer ≥ 0', check: count, fusionOnly: false },
} satisfies Partial<Record<TuneParam, ParamRule>>;

/** What each kind can tune. */
const RULES: Partial<Record<RetrieverConfig['kind'], Partial<Record<TuneParam, ParamRule>>>> = {
  bm25: BM25_RULES,
  rm3: { ...BM25_RULES, ...FEEDBACK_RULES, 'orig-weight': { what: 'a number between 0 and 1', check: unit, fusionOnly: false } },
  bo1: { ...BM25_RULES, ...FEEDBACK_RULES },
  dense: { 'ef-search': { what: 'a positive integer', check: positive, fusionOnly: false } },
  convex: { ...BM25_RULES, alpha: { what: 'a number between 0 and 1', check: unit, fusionOnly: true } },
  rrf: { ...BM25_RULES, k: { what: 'a number ≥ 0', check: (value) => value >= 0, fusionOnly: true } },
  ledr: { ...BM25_RULES, k: { what: 'a positive integer', check: positive, fusionOnly: false } },
  rerank: { depth: { what: 'a positive integer', check: positive, fusionOnly: false } },
};

/** The parameters `kind` can tune, in a stable order. */
export function tunableParams(kind: RetrieverConfig['kind']): TuneParam[] {
  return Object.keys(RULES[kind] ?? {}) as TuneParam[];
}

function ruleOf(kind: RetrieverConfig['kind'], name: string): ParamRule {
  const rule = RULES[kind]?.[name as TuneParam];
  if (rule === undefined) {
    const names = tunableParams(kind);
    throw new GridError(`${name} is not a parameter of ${kind}${names.length > 0 ? ` (it has ${names.join(', ')})` : ' (it has none to tune)'}`);
  }
  return rule;
}

/** Refuses axes `kind` does not have and values its parameters cannot take. */
export function checkAxes(kind: RetrieverConfig['kind'], axes: readonly GridAxis[]): void {
  for (const axis of axes) {
    const rule = ruleOf(kind, axis.name);
    const bad = axis.values.find((value) => !rule.check(value));
    if (bad !== undefined) throw new GridError(`${axis.name} ${bad}: expected ${rule.what}`);
  }
}

/** True when every axis only re-fuses fixed lists (each point is a fusion, not a search). */
export function isFusionOnly(kind: RetrieverConfig['kind'], name: string): boolean {
  return ruleOf(kind, name).fusionOnly;
}

/** A parameter's value in `config` (where a coordinate search starts). */
export function paramValue(config: RetrieverConfig, name: TuneParam): number | undefined {
  switch (name) {
    case 'k1':
    case 'b':
      return 'bm25' in config ? config.bm25[name] : undefined;
    case 'alpha':
      return config.kind === 'convex' ? config.alpha : undefined;
    case 'k':
      return config.kind === 'rrf' || config.kind === 'ledr' ? config.k : undefined;
    case 'fb-terms':
      return config.kind === 'rm3' || config.kind === 'bo1' ? config.fbTerms : undefined;
    case 'fb-docs':
      return config.kind === 'rm3' || config.kind === 'bo1' ? config.fbDocs : undefined;
    case 'orig-weight':
      return config.kind === 'rm3' ? config.originalQueryWeight : undefined;
    case 'depth':
      return config.kind === 'rerank' ? config.depth : undefined;
    case 'ef-search':
      return config.kind === 'dense' ? config.dense.hnsw.efSearch : undefined;
  }
}

/** `config` with one parameter set (a copy; the configuration given is left as it was). */
function withParam(config: RetrieverConfig, name: string, value: number): RetrieverConfig {
  ruleOf(config.kind, name);
  switch (name) {
    case 'k1':
    case 'b':
      return 'bm25' in config ? ({ ...config, bm25: { ...config.bm25, [name]: value } } as FirstStageConfig) : config;
    case 'alpha':
      return config.kind === 'convex' ? { ...config, alpha: value } : config;
    case 'k':
      return config.kind === 'rrf' || config.kind === 'ledr' ? { ...config, k: value } : config;
    case 'fb-terms':
      return config.kind === 'rm3' || config.kind === 'bo1' ? { ...config, fbTerms: value } : config;
    case 'fb-docs':
      return config.kind === 'rm3' || config.kind === 'bo1' ? { ...config, fbDocs: value } : config;
    case 'orig-weight':
      return config.kind === 'rm3' ? { ...config, originalQueryWeight: value } : config;
    case 'depth':
      return config.kind === 'rerank' ? { ...config, depth: value } : config;
    case 'ef-search':
      return config.kind === 'dense' ? { ...config, dense: { ...config.dense, hnsw: { ...config.dense.hnsw, efSearch: value } } } : config;
    default:
      return config;
  }
}

/** `config` with every parameter of `params` set. */
export function withParams(config: RetrieverConfig, params: GridParams): RetrieverConfig {
  return Object.entries(params).reduce((next, [name, value]) => withParam(next, name, value), config);
}

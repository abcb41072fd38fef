/**
 * Whether a column's settings fit the open collection's language, and the same column made to fit. Columns
 * set up on an English collection (or opened from a link) keep their analyzer and model on a Polish one, where
 * the English analyzer stems Polish words as English and an English-only model reads them as noise; the
 * column says so and offers this fix in one click.
 */
import { LANGUAGES, type Language } from '../../lib/analysis/language.ts';
import { modelSuitsLanguage, registryModel } from '../../lib/dense/registry.ts';
import { DEFAULT_DENSE, MULTILINGUAL_DENSE_MODEL, type Bm25Settings, type DenseSettings, type RetrieverConfig } from '../../lib/retrievers/config.ts';

export interface LanguageMisfit {
  /** The analyzers of other languages the column uses (`english`). */
  analyzers: string[];
  /** The models of the column that are not meant for the language. */
  models: string[];
}

/** The language analyzers (one per language); `standard`, `whitespace`, `wordpiece` belong to none. */
const LANGUAGE_ANALYZERS = new Set<string>(Object.values(LANGUAGES).map((info) => info.analyzer));

function analyzerMisfits(bm25: Bm25Settings, language: Language): boolean {
  return LANGUAGE_ANALYZERS.has(bm25.analyzer) && bm25.analyzer !== LANGUAGES[language].analyzer;
}

function modelMisfits(dense: DenseSettings, language: Language): boolean {
  const spec = registryModel(dense.model);
  // A model the registry does not know says nothing about its languages: nothing is claimed.
  return spec !== undefined && !modelSuitsLanguage(spec, language);
}

function parts(config: RetrieverConfig): { bm25?: Bm25Settings; dense?: DenseSettings }[] {
  if (config.kind === 'rerank') return parts(config.firstStage);
  if (config.kind === 'run') return [];
  return [{ bm25: 'bm25' in config ? config.bm25 : undefined, dense: 'dense' in config ? config.dense : undefined }];
}

/** What of `config` does not fit `language`, or undefined when all of it does. */
export function languageMisfit(config: RetrieverConfig, language: Language): LanguageMisfit | undefined {
  const analyzers = new Set<string>();
  const models = new Set<string>();
  for (const { bm25, dense } of parts(config)) {
    if (bm25 !== undefined && analyzerMisfits(bm25, language)) analyzers.add(bm25.analyzer);
    if (dense !== undefined && modelMisfits(dense, language)) models.add(dense.model);
  }
  return analyzers.size + models.size === 0 ? undefined : { analyzers: [...analyzers], models: [...models] };
}

/** The model a column gets instead of one not meant for `language`: the multilingual default (a hub model). */
export function fittingModel(language: Language): string {
  return language === 'en' ? DEFAULT_DENSE.model : MULTILINGUAL_DENSE_MODEL;
}

/** `config` with the language's analyzer and a model meant for it where they did not fit; the rest kept. */
export function fitLanguage<C extends RetrieverConfig>(config: C, language: Language): C {
  const fit = structuredClone(config) as RetrieverConfig;
  const stages = fit.kind === 'rerank' ? [fit.firstStage] : [fit];
  for (const stage of stages) {
    if ('bm25' in stage && analyzerMisfits(stage.bm25, language)) stage.bm25 = { ...stage.bm25, analyzer: LANGUAGES[language].analyzer };
    if ('dense' in stage && modelMisfits(stage.dense, language)) {
      const model = fittingModel(language);
      // The new model's own precision: a dtype the old one used may not exist for it.
      stage.dense = { ...stage.dense, model, dtype: registryModel(model)?.defaultDtype ?? stage.dense.dtype };
    }
  }
  return fit as C;
}

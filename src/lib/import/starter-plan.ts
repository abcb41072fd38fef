import { STARTER_COLLECTION } from '../starter/index.ts';
import { textImportFile, type ImportPlan } from './import-file.ts';

/**
 * The embedded starter collection as an import plan. The texts are handed over by the caller (the app
 * imports the files with Vite `?raw`, tests read them from disk), so this module stays free of bundler and
 * Node specifics.
 */

export interface StarterTexts {
  corpus: string;
  queries: string;
  /** qrels/test.tsv */
  qrels: string;
}

export function starterImportPlan(texts: StarterTexts): ImportPlan {
  const { files } = STARTER_COLLECTION;
  return {
    meta: {
      id: STARTER_COLLECTION.id,
      name: STARTER_COLLECTION.name,
      language: 'en',
      source: { kind: 'starter', detail: `built in (${STARTER_COLLECTION.licence}, ${STARTER_COLLECTION.attribution})` },
    },
    corpus: textImportFile(texts.corpus, { role: 'corpus', format: 'jsonl', name: `starter/${files.corpus}` }),
    queries: textImportFile(texts.queries, { role: 'queries', format: 'jsonl', name: `starter/${files.queries}` }),
    qrels: [textImportFile(texts.qrels, { role: 'qrels', split: 'test', format: 'tsv', name: `starter/${files.qrels}` })],
  };
}

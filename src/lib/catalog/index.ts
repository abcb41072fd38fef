import { BEIR_PL_ENTRIES } from './beir-pl.ts';
import { BEIR_ENTRIES } from './beir.ts';
import type { CatalogEntry } from './catalog.ts';
import { CQADUPSTACK_ENTRIES } from './cqadupstack.ts';
import { NANOBEIR_ENTRIES } from './nanobeir.ts';

export * from './catalog.ts';

/** Every downloadable collection, in the order the Datasets view lists them. */
export const CATALOG: readonly CatalogEntry[] = [...BEIR_ENTRIES, ...CQADUPSTACK_ENTRIES, ...NANOBEIR_ENTRIES, ...BEIR_PL_ENTRIES];

export const CATALOG_FAMILIES: ReadonlyArray<{ family: CatalogEntry['family']; title: string; description: string }> = [
  { family: 'beir', title: 'BEIR', description: 'The original BEIR test collections (English).' },
  { family: 'cqadupstack', title: 'CQADupStack', description: 'BEIR\'s twelve StackExchange subforums, one collection each.' },
  { family: 'nanobeir', title: 'NanoBEIR', description: '50 queries and a few thousand documents per dataset: quick to download and index.' },
  { family: 'beir-pl', title: 'BEIR-PL', description: 'BEIR translated into Polish (CLARIN).' },
];

export function catalogEntry(id: string): CatalogEntry | undefined {
  return CATALOG.find((entry) => entry.id === id);
}

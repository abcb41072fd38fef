/**
 * The text a model sees for a document or a query. Documents are `title + " " + text`, as in BEIR's
 * dense-retrieval evaluation (beir.retrieval.models.SentenceBERT joins title and text with a space);
 * prefixes come from the model card (E5: "passage: " / "query: ", BGE: a query instruction).
 */
import type { Doc, Query } from '../types.ts';
import type { ModelSpec } from './registry.ts';

export function passageText(doc: Doc, spec: Pick<ModelSpec, 'passagePrefix'>): string {
  const body = doc.title ? `${doc.title} ${doc.text}` : doc.text;
  return spec.passagePrefix + body.trim();
}

export function queryText(query: Query, spec: Pick<ModelSpec, 'queryPrefix'>): string {
  return spec.queryPrefix + query.text.trim();
}

/** The model settings a part's vectors depend on (the settings of its embedding set, embedding-sets.ts). */
export function vectorSettings(spec: ModelSpec, part: 'corpus' | 'queries'): Record<string, unknown> {
  const { kind, pooling, normalize, maxLength } = spec;
  const prefix = part === 'corpus' ? { passagePrefix: spec.passagePrefix } : { queryPrefix: spec.queryPrefix };
  return { kind, pooling, normalize, ...prefix, maxLength };
}

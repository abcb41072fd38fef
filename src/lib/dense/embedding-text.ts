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

/**
 * How the embedder reads a text, where it changed: vectors stored before (a long text without its closing
 * special token; model2vec averaging [UNK]) are other vectors, so their embedding sets must not be reused.
 */
const TEXT_READING: Partial<Record<ModelSpec['kind'], Record<string, string>>> = {
  transformer: { textCut: 'own-tokens' },
  model2vec: { unknownTokens: 'dropped' },
};

/** The model settings a part's vectors depend on (the settings of its embedding set, embedding-sets.ts). */
export function vectorSettings(spec: ModelSpec, part: 'corpus' | 'queries'): Record<string, unknown> {
  const { kind, pooling, normalize, maxLength } = spec;
  const prefix = part === 'corpus' ? { passagePrefix: spec.passagePrefix } : { queryPrefix: spec.queryPrefix };
  return { kind, pooling, normalize, ...prefix, maxLength, ...TEXT_READING[kind] };
}

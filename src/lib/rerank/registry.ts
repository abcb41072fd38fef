/**
 * The cross-encoder (re-ranker) registry: data only, beside the embedding registry (src/lib/dense/registry.ts)
 * and in the same terms (id = hub repository, `local/<name>` for the project's own models, dtypes by the file
 * suffixes of transformers.js). A cross-encoder reads (query, document) as one sequence and returns one logit,
 * the relevance score; nothing is pooled or compared, so the only settings are where the files are, which
 * weights, and how long a pair may be.
 *
 * Sources: each repository's file listing on the Hugging Face hub (onnx/model.onnx, model_quantized.onnx,
 * model_fp16.onnx) and its config.json (max_position_embeddings).
 */
import type { EmbeddingDtype, ModelSource } from '../dense/registry.ts';

export interface RerankerSpec {
  /** Hub repository id, or `local/<name>` for models this project builds. */
  id: string;
  label: string;
  kind: 'cross-encoder';
  source: ModelSource;
  dtypes: EmbeddingDtype[];
  defaultDtype: EmbeddingDtype;
  /**
   * Tokens per pair. 0: the smaller of the model's max_position_embeddings and its tokenizer's
   * model_max_length (XLM-R models count 2 position slots for padding: 514 → 512 from the tokenizer).
   */
  maxLength: number;
  /**
   * transformers.js model type (config.json's `model_type`) for a repository whose config.json names none,
   * so the sequence-classification class can be chosen ('xlm-roberta': XLMRobertaForSequenceClassification).
   */
  modelType?: string;
  /** Languages the model is meant for (ISO 639-1; 'multi' for many). */
  languages: string[];
  /** Approximate size of the default-dtype weights in MB, shown before a download. */
  sizeMb: number;
  notes?: string;
}

export const DEFAULT_RERANKER = 'Xenova/ms-marco-MiniLM-L-6-v2';
/** The project's own test cross-encoder: offline, its score a known function of the token ids. */
export const TEST_RERANKER = 'local/tiny-cross-encoder';

export const RERANKER_REGISTRY: readonly RerankerSpec[] = [
  {
    id: 'Xenova/ms-marco-MiniLM-L-6-v2',
    label: 'ms-marco MiniLM L6 (cross-encoder)',
    kind: 'cross-encoder',
    source: 'hub',
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    maxLength: 0,
    languages: ['en'],
    sizeMb: 23,
    notes: 'ONNX export of cross-encoder/ms-marco-MiniLM-L-6-v2, the re-ranker of BEIR’s BM25+CE row.',
  },
  {
    id: 'Xenova/ms-marco-TinyBERT-L-2-v2',
    label: 'ms-marco TinyBERT L2 (cross-encoder, fastest)',
    kind: 'cross-encoder',
    source: 'hub',
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    maxLength: 0,
    languages: ['en'],
    sizeMb: 4.5,
  },
  {
    id: 'Xenova/bge-reranker-base',
    label: 'BGE reranker base (English and Chinese)',
    kind: 'cross-encoder',
    source: 'hub',
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    maxLength: 0,
    languages: ['en', 'zh'],
    sizeMb: 279,
    notes: 'XLM-RoBERTa base; no token_type_ids (pairs are <s> q </s></s> d </s>).',
  },
  {
    id: 'jinaai/jina-reranker-v2-base-multilingual',
    label: 'Jina reranker v2 multilingual (Polish and 100+ languages)',
    kind: 'cross-encoder',
    source: 'hub',
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    // The model card recommends pairs of up to 1,024 tokens; its own default.
    maxLength: 1024,
    // Its config.json has no model_type (the card loads it as XLM-RoBERTa).
    modelType: 'xlm-roberta',
    languages: ['multi', 'pl', 'en'],
    sizeMb: 280,
    notes:
      'Licence CC BY-NC 4.0 (non-commercial). Chosen over Xenova/mmarco-mMiniLMv2-L12-H384-v1, which has no ONNX export on the hub (the id does not resolve); its onnx/ folder and transformers.js use are published by the hub repository itself.',
  },
  {
    id: TEST_RERANKER,
    label: 'Tiny cross-encoder (lexical overlap, test model)',
    kind: 'cross-encoder',
    source: 'local',
    dtypes: ['fp32', 'q8'],
    defaultDtype: 'fp32',
    maxLength: 0,
    languages: [],
    sizeMb: 0.1,
    notes:
      'npm run models; logit = Σ over document tokens of w(id)·(0.25 + occurrences in the query) − 0.5·Σ over query tokens of w(id). Checks the pair path offline; not a trained model.',
  },
];

export function rerankerSpec(id: string): RerankerSpec | undefined {
  return RERANKER_REGISTRY.find((spec) => spec.id === id);
}

/** Registry entry, or a spec for any other hub cross-encoder (or a `local/` folder) with the common defaults. */
export function resolveRerankerSpec(id: string, overrides: Partial<RerankerSpec> = {}): RerankerSpec {
  const known = rerankerSpec(id);
  if (known) return { ...known, ...overrides };
  return {
    id,
    label: id,
    kind: 'cross-encoder',
    source: id.startsWith('local/') ? 'local' : 'hub',
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'fp32',
    maxLength: 0,
    languages: [],
    sizeMb: 0,
    ...overrides,
  };
}

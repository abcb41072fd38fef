/**
 * Encoder sources for the augmentation services in Node tests: a test's own static table under the id
 * 'synthetic', and the app's transformers (local/tiny-bert) on onnxruntime-node, loaded as the CLI loads
 * them (src/cli/augment-model.ts) — the page's workers read the same models through workers/encoder-sources.ts.
 */
import type { EncoderSources } from '../../../src/lib/augment/encoder-loader.ts';
import { loadTransformerSession } from '../../../src/lib/dense/embedder.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { resolveModelSpec, type ModelSpec } from '../../../src/lib/dense/registry.ts';
import type { StaticTable } from '../../../src/lib/dense/static-table.ts';
import { resolveNodeModel } from '../../../src/cli/dense.ts';

export const SYNTHETIC_ENCODER = 'synthetic';

export function nodeEncoders(table?: StaticTable): { encoders: EncoderSources; resolveEncoder: (model: string) => ModelSpec } {
  return {
    resolveEncoder: (model) => (model === SYNTHETIC_ENCODER ? resolveModelSpec(model, { kind: 'static-table', source: 'local' }) : resolveNodeModel(model).spec),
    encoders: {
      readTable: async (spec) => {
        if (spec.id !== SYNTHETIC_ENCODER || table === undefined) throw new Error(`no table for ${spec.id} in this test`);
        return table;
      },
      openSession: (spec, dtype) => {
        configureModelSource(spec, { localModelPath: resolveNodeModel(spec.id).localModelPath });
        return loadTransformerSession({ spec, device: 'cpu', dtype });
      },
    },
  };
}

/**
 * Opens the query encoder a model file or a training run names, in Node and in the page alike: a static
 * table (its rows trainable) or a frozen transformer over the dense code's session. Where the files come
 * from is the caller's (the CLI reads model folders; the page's workers fetch the app's model folder or the
 * hub), so the choice of encoder and its refusals are the same everywhere.
 */
import type { Analyzer } from '../analysis/analyzer.ts';
import type { TransformerSession } from '../dense/embedder.ts';
import type { EmbeddingDtype, ModelSpec } from '../dense/registry.ts';
import type { StaticTable } from '../dense/static-table.ts';
import { StaticQueryEncoder, type QueryEncoder } from './encoder.ts';
import { TransformerQueryEncoder } from './transformer-encoder.ts';

/** Where an encoder's weights come from. */
export interface EncoderSources {
  readTable(spec: ModelSpec): Promise<StaticTable>;
  openSession(spec: ModelSpec, dtype: EmbeddingDtype): Promise<TransformerSession>;
}

/** A model the registry has that cannot be an encoder (no token states, no such weights). */
export class EncoderChoiceError extends Error {
  override name = 'EncoderChoiceError';
}

/** The weights a transformer encoder loads: `dtype`, or the registry's default; refused when the model has none such. */
export function encoderDtype(spec: ModelSpec, dtype?: EmbeddingDtype): EmbeddingDtype {
  if (spec.kind !== 'transformer') {
    throw new EncoderChoiceError(`a ${spec.kind} model has no token states; use a static table (local/glove-100d-sif) or a transformer`);
  }
  const wanted = dtype ?? spec.defaultDtype;
  if (!spec.dtypes.includes(wanted)) throw new EncoderChoiceError(`no ${wanted} weights (has ${spec.dtypes.join(', ')})`);
  return wanted;
}

/** The encoder `spec` names over `analyzer`; a transformer's `dtype` defaults to the registry's. */
export async function openQueryEncoder(spec: ModelSpec, analyzer: Analyzer, sources: EncoderSources, dtype?: EmbeddingDtype): Promise<QueryEncoder> {
  if (spec.kind === 'static-table') return new StaticQueryEncoder(spec.id, await sources.readTable(spec), analyzer);
  const wanted = encoderDtype(spec, dtype);
  return TransformerQueryEncoder.open(spec.id, analyzer, await sources.openSession(spec, wanted), wanted);
}

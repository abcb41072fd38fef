/**
 * The query encoders of a worker's services (augment-service.ts, augment-training-service.ts): a model id
 * resolved in the registry and opened through augment/encoder-loader.ts, each static table and each
 * transformer session (per weights) loaded once and shared by the encoders over it (one per analyzer).
 */
import type { Analyzer } from '../analysis/analyzer.ts';
import { openQueryEncoder, type EncoderSources } from '../augment/encoder-loader.ts';
import type { QueryEncoder } from '../augment/encoder.ts';
import type { TransformerSession } from '../dense/embedder.ts';
import { resolveModelSpec, type EmbeddingDtype, type ModelSpec } from '../dense/registry.ts';
import type { StaticTable } from '../dense/static-table.ts';
import { PromiseCache } from './promise-cache.ts';

export class QueryEncoders {
  private readonly tables = new PromiseCache<string, StaticTable>();
  private readonly sessions = new PromiseCache<string, TransformerSession>();
  private readonly cached: EncoderSources;

  constructor(
    sources: EncoderSources,
    /** A model id → its spec (the registry's; tests may name a table of their own). */
    private readonly resolve: (model: string) => ModelSpec = (model) => resolveModelSpec(model),
  ) {
    this.cached = {
      readTable: (spec) => this.tables.get(spec.id, () => sources.readTable(spec)),
      openSession: (spec, dtype) => this.sessions.get(`${spec.id} ${dtype}`, () => sources.openSession(spec, dtype)),
    };
  }

  /** The encoder `model` names over `analyzer` (a transformer's weights `dtype`, default the registry's). */
  open(model: string, analyzer: Analyzer, dtype?: EmbeddingDtype): Promise<QueryEncoder> {
    return openQueryEncoder(this.resolve(model), analyzer, this.cached, dtype);
  }
}

/**
 * Where the query-augmentation workers (augment.worker.ts, learn.worker.ts) read an encoder from: a static
 * table from the app's model folder (as app-files.ts reads it), a transformer through the session the
 * embedding workers load models with (model-session.ts) — the app's own models from its model folder,
 * hub models from the hub or the mirror the page names (`source`, sent with each request: a worker cannot
 * read the page's address) — on WASM (token states are read on the CPU side anyway).
 */
import type { EncoderSources } from '../src/lib/augment/encoder-loader.ts';
import type { ModelSourceConfig } from '../src/lib/dense/model-source.ts';
import { loadAppStaticTable } from './app-files.ts';
import { openTransformerSession } from './model-session.ts';

export function appEncoderSources(source: () => ModelSourceConfig): EncoderSources {
  return {
    readTable: (spec) => {
      if (spec.source !== 'local') return Promise.reject(new Error(`The encoder ${spec.id} is not one of the app's own static tables; only those are read in the page.`));
      return loadAppStaticTable(spec.id);
    },
    openSession: (spec, dtype) => openTransformerSession({ spec, dtype, device: 'wasm', source: source() }),
  };
}

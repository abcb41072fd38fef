/**
 * The starter collection's vectors shipped with the default model (src/lib/dense/shipped-vectors.ts,
 * scripts/models/starter-vectors.ts): the file `npm run models` writes holds, bit for bit, the vectors the
 * dense worker would compute for the starter as the browser imports it — same document order, same content
 * fingerprint (which the worker checks before using them), same query texts — and the format rejects a
 * damaged file with a message.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadNodeEmbedder, MODELS_DIR } from '../../../src/cli/dense.ts';
import { passageText, queryText } from '../../../src/lib/dense/embedding-text.ts';
import { resolveModelSpec } from '../../../src/lib/dense/registry.ts';
import { decodeShippedVectors, encodeShippedVectors, SHIPPED_VECTORS_FORMAT, type ShippedVectors } from '../../../src/lib/dense/shipped-vectors.ts';
import { STARTER_ID } from '../../../src/lib/starter/index.ts';
import { STARTER_COLLECTION } from '../../../src/lib/starter/index.ts';
import { importedStarter, writeStarterVectors } from '../../../scripts/models/starter-vectors.ts';
import { ensureModels } from './models-fixture.ts';

const spec = resolveModelSpec('local/glove-100d-sif');
const file = join(MODELS_DIR, spec.id, spec.shippedVectors![STARTER_ID]!);

let shipped: ShippedVectors;

beforeAll(async () => {
  ensureModels('glove-100d-sif');
  await writeStarterVectors(MODELS_DIR);
  shipped = decodeShippedVectors(readFileSync(file), file);
}, 120_000);

function bytesOf(data: Float32Array): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

describe('the starter vectors shipped with local/glove-100d-sif', () => {
  test('are those the dense worker computes for the imported starter, bit for bit, in its document order', async () => {
    const starter = await importedStarter();
    expect(shipped.header).toMatchObject({ format: SHIPPED_VECTORS_FORMAT, collectionId: STARTER_ID, modelId: spec.id, fingerprint: starter.fingerprint, dim: spec.dim });
    expect(shipped.header.fingerprint).toMatch(new RegExp(`^${STARTER_COLLECTION.counts.documents}:[0-9a-f]{8}$`));
    expect(shipped.header.docIds).toEqual(starter.docs.map((doc) => doc.id));
    expect(shipped.header.queryTexts).toEqual(starter.queryTexts);
    expect(shipped.header.queryTexts).toHaveLength(STARTER_COLLECTION.counts.queries);
    // The worker's embedder on the shipped table (as the dense column embeds a corpus, then typed queries one by one).
    const embedder = await loadNodeEmbedder({ spec, localModelPath: MODELS_DIR });
    const corpus = await embedder.embed(starter.docs.map((doc) => passageText(doc, spec)));
    expect(bytesOf(shipped.corpus.data)).toEqual(bytesOf(corpus.data));
    for (const [i, text] of starter.queryTexts.entries()) {
      const alone = await embedder.embed([queryText({ id: '', text }, spec)]);
      expect(bytesOf(shipped.queries.data.subarray(i * spec.dim, (i + 1) * spec.dim))).toEqual(bytesOf(alone.data));
    }
    // Real vectors: normalized, not all zero.
    const first = shipped.corpus.data.subarray(0, spec.dim);
    expect(Math.hypot(...first)).toBeCloseTo(1, 5);
  });

  test('writing again leaves an up-to-date file alone', async () => {
    expect(await writeStarterVectors(MODELS_DIR)).toEqual([]);
  });
});

describe('the shipped-vectors format', () => {
  const small: ShippedVectors = {
    header: { format: SHIPPED_VECTORS_FORMAT, collectionId: 'c', modelId: 'm', fingerprint: '2:abcdef01', dim: 3, docIds: ['a', 'b'], queryTexts: ['é q'] },
    corpus: { rows: 2, dim: 3, data: Float32Array.from([1, 2, 3, 4, 5, 6]) },
    queries: { rows: 1, dim: 3, data: Float32Array.from([0.5, -0.25, 7]) },
  };

  test('round-trips header and vectors, whatever offset the bytes come at', () => {
    const bytes = encodeShippedVectors(small);
    const shifted = new Uint8Array(bytes.byteLength + 1);
    shifted.set(bytes, 1);
    const back = decodeShippedVectors(shifted.subarray(1), 'x.bin');
    expect(back.header).toEqual(small.header);
    expect([...back.corpus.data]).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...back.queries.data]).toEqual([0.5, -0.25, 7]);
  });

  test('a cut-short, foreign or mismatched file is an error that names it', () => {
    const bytes = encodeShippedVectors(small);
    expect(() => decodeShippedVectors(bytes.subarray(0, bytes.byteLength - 4), 'x.bin')).toThrow(/x\.bin: not a shipped-vectors file \(\d+ bytes, expected \d+\); run npm run models again/);
    expect(() => decodeShippedVectors(new TextEncoder().encode('<!doctype html>'), 'x.bin')).toThrow('x.bin: not a shipped-vectors file');
    expect(() => decodeShippedVectors(new Uint8Array(2), 'x.bin')).toThrow('x.bin: not a shipped-vectors file (2 bytes)');
    expect(() => encodeShippedVectors({ ...small, queries: { rows: 0, dim: 3, data: new Float32Array(0) } })).toThrow(RangeError);
  });
});

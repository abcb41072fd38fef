/**
 * Vectors the app ships with a model for a collection it ships (the starter collection): the corpus and the
 * query vectors, made when the model is built (scripts/models/build-models.ts) by the same code that embeds
 * in the browser, so they are the vectors the browser would compute, bit for bit
 * (tests/lib/dense/shipped-vectors.test.ts). A first visit stores them as the collection's embedding sets
 * and ranks the dense column without waiting for the model's 22 MB table, which loads meanwhile for typed
 * queries. The registry names the file (`shippedVectors` of a model: collection id → file in its folder).
 *
 * File layout (little-endian, as table.q8.bin):
 *
 *   uint32            byte length n of the header
 *   n bytes           header, UTF-8 JSON (ShippedVectorsHeader)
 *   0–3 bytes         zero padding to a multiple of 4
 *   float32[docs×dim] corpus vectors, in `docIds` order (the collection's document order)
 *   float32[queries×dim] query vectors, in `queryTexts` order
 */
import type { VectorMatrix } from './vector-matrix.ts';

export const SHIPPED_VECTORS_FORMAT = 'rp-shipped-vectors-f32';

export interface ShippedVectorsHeader {
  format: typeof SHIPPED_VECTORS_FORMAT;
  collectionId: string;
  modelId: string;
  /** The collection's content fingerprint when the vectors were made (collections.ts: `<docs>:<fnv>`). */
  fingerprint: string;
  dim: number;
  docIds: string[];
  /** Query texts as stored (before the model's query prefix): query vectors are found by text. */
  queryTexts: string[];
}

export interface ShippedVectors {
  header: ShippedVectorsHeader;
  corpus: VectorMatrix;
  queries: VectorMatrix;
}

export function encodeShippedVectors(vectors: ShippedVectors): Uint8Array {
  const { header, corpus, queries } = vectors;
  if (corpus.rows !== header.docIds.length || queries.rows !== header.queryTexts.length || corpus.dim !== header.dim || queries.dim !== header.dim) {
    throw new RangeError('shipped vectors: the matrices do not match the header');
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const dataStart = Math.ceil((4 + json.byteLength) / 4) * 4;
  const floats = (corpus.rows + queries.rows) * header.dim;
  const bytes = new Uint8Array(dataStart + floats * 4);
  new DataView(bytes.buffer).setUint32(0, json.byteLength, true);
  bytes.set(json, 4);
  const data = new Float32Array(bytes.buffer, dataStart, floats);
  data.set(corpus.data.subarray(0, corpus.rows * header.dim), 0);
  data.set(queries.data.subarray(0, queries.rows * header.dim), corpus.rows * header.dim);
  return bytes;
}

/** Reads a file written by encodeShippedVectors; `where` names it in errors. */
export function decodeShippedVectors(bytes: Uint8Array, where: string): ShippedVectors {
  const fail = (reason: string): never => {
    throw new Error(`${where}: not a shipped-vectors file (${reason}); run npm run models again`);
  };
  if (bytes.byteLength < 4) fail(`${bytes.byteLength} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true);
  if (4 + length > bytes.byteLength) fail(`a header of ${length} bytes in ${bytes.byteLength}`);
  let header: ShippedVectorsHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as ShippedVectorsHeader;
  } catch {
    return fail('the header is not JSON');
  }
  if (header.format !== SHIPPED_VECTORS_FORMAT || !Array.isArray(header.docIds) || !Array.isArray(header.queryTexts) || !Number.isInteger(header.dim)) {
    fail(`format ${JSON.stringify(header.format)}`);
  }
  const dataStart = Math.ceil((4 + length) / 4) * 4;
  const { dim } = header;
  const docs = header.docIds.length;
  const queries = header.queryTexts.length;
  const floats = (docs + queries) * dim;
  if (bytes.byteLength !== dataStart + floats * 4) fail(`${bytes.byteLength} bytes, expected ${dataStart + floats * 4}`);
  // Copied so the float view is aligned whatever offset the bytes came at and owns its buffer (a Node
  // Buffer's slice would share the file's).
  const own = new Uint8Array(floats * 4);
  own.set(bytes.subarray(dataStart));
  const data = new Float32Array(own.buffer);
  return {
    header,
    corpus: { rows: docs, dim, data: data.subarray(0, docs * dim) },
    queries: { rows: queries, dim, data: data.subarray(docs * dim, floats) },
  };
}

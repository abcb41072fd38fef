/**
 * The WebAssembly row sum (src/lib/dense/row-sum.ts) against the encoder's TypeScript loop: bit-identical
 * vectors on every SciFact document and query with the shipped default table, and the module's bytes are
 * those of row-sum.wat.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { MODELS_DIR } from '../../../src/cli/dense.ts';
import { passageText, queryText } from '../../../src/lib/dense/embedding-text.ts';
import { resolveModelSpec } from '../../../src/lib/dense/registry.ts';
import { createRowSummer } from '../../../src/lib/dense/row-sum.ts';
import { parseStaticTable, StaticTableEncoder, staticTableHeader, type StaticTable } from '../../../src/lib/dense/static-table.ts';
import { assemble, modulePath, moduleSource, ROW_SUM } from '../../../scripts/wasm/build-wat.ts';
import { shared } from '../../shared-dir.ts';
import { ensureModels } from './models-fixture.ts';

const spec = resolveModelSpec('local/glove-100d-sif');
let table: StaticTable;
let texts: string[];

beforeAll(async () => {
  ensureModels('glove-100d-sif');
  const dir = join(MODELS_DIR, 'local', 'glove-100d-sif');
  const header = staticTableHeader(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as unknown, dir);
  table = parseStaticTable(header, readFileSync(join(dir, 'vocab.txt'), 'utf8'), readFileSync(join(dir, 'table.q8.bin')), dir);
  const scifact = await loadDataset(shared('beir', 'scifact'));
  texts = [...scifact.docs.map((doc) => passageText(doc, spec)), ...[...scifact.queries.values()].map((query) => queryText(query, spec)), '', '...', 'unknownwordxyz'];
}, 120_000);

describe('row sums in WebAssembly', () => {
  test('give vectors bit-identical to the TypeScript loop on every SciFact document and query', () => {
    const wasm = new StaticTableEncoder(table);
    const plain = new StaticTableEncoder(table, { wasm: false });
    expect(wasm.wasm).toBe(true);
    expect(plain.wasm).toBe(false);
    const dim = table.header.dim;
    const a = new Float32Array(dim);
    const b = new Float32Array(dim);
    let differing = 0;
    for (const text of texts) {
      expect(wasm.embedInto(text, a)).toBe(plain.embedInto(text, b));
      if (!Buffer.from(a.buffer).equals(Buffer.from(b.buffer))) differing++;
    }
    expect(differing).toBe(0);
    expect(texts.length).toBeGreaterThan(6000);
  });

  test('sum rows in token order with any weights, the last row of the table included', () => {
    const dim = 12;
    const rows = 5;
    const values = Int8Array.from({ length: rows * dim }, (_, i) => ((i * 37) % 255) - 127);
    const summer = createRowSummer(values, dim, 8)!;
    const tokens = [4, 0, 2, 4];
    const weights = [0.1, -3.5e-3, 7, 1 / 3];
    summer.ids.set(tokens);
    summer.weights.set(weights);
    summer.accumulate(tokens.length);
    const expected = new Float64Array(dim);
    tokens.forEach((id, u) => {
      for (let c = 0; c < dim; c++) expected[c]! += weights[u]! * values[id * dim + c]!;
    });
    expect(Array.from(summer.sum)).toEqual(Array.from(expected));
    summer.accumulate(0);
    expect(Array.from(summer.sum)).toEqual(new Array(dim).fill(0));
  });

  test('a width that is not a multiple of 4 keeps the TypeScript loop', () => {
    expect(createRowSummer(new Int8Array(30), 10, 4)).toBeUndefined();
  });

  test('the module is row-sum.wat as scripts/wasm/build-wat.ts assembles it', () => {
    expect(readFileSync(modulePath(ROW_SUM), 'utf8')).toBe(moduleSource(ROW_SUM, assemble(ROW_SUM)));
  });
});

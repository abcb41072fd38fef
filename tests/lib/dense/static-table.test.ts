/**
 * The compact form of the default model (src/lib/dense/static-table.ts, word-tokenizer.ts) against the form
 * it replaces, the ONNX graph and tokenizer.json run by transformers.js (local/glove-100d-sif-onnx, built
 * by the same generator from the same GloVe vectors), on every SciFact document and query:
 *
 * - tokens: the TypeScript tokenizer gives the ids of tokenizer.json, exactly (full vocabulary), and the
 *   shipped cut gives them with every id past the cut replaced by [UNK];
 * - vectors: the int8 table's mean differs from the fp32 graph's by at most the quantization error of the
 *   rows it averages (half a step per component: Σ_t scale_t / 2 / n);
 * - the shipped table is the first rows of the full one, so the cut changes nothing but the words it drops;
 * - a query typed alone embeds as it does in a batch, with the same model.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AutoTokenizer, type PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { loadNodeEmbedder, MODELS_DIR, REFERENCE_MODELS_DIR, resolveNodeModel } from '../../../src/cli/dense.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { passageText, queryText } from '../../../src/lib/dense/embedding-text.ts';
import { resolveModelSpec } from '../../../src/lib/dense/registry.ts';
import { parseStaticTable, STATIC_TABLE_FILES, StaticTableEncoder, staticTableHeader, type StaticTable } from '../../../src/lib/dense/static-table.ts';
import { VocabIndex, WordTokenizer } from '../../../src/lib/dense/word-tokenizer.ts';
import { GLOVE_SIF_KEEP } from '../../../scripts/models/build-models.ts';
import { shared } from '../../shared-dir.ts';
import { ensureModels } from './models-fixture.ts';

const spec = resolveModelSpec('local/glove-100d-sif');
const onnxDir = join(REFERENCE_MODELS_DIR, 'local', 'glove-100d-sif-onnx');
const shippedDir = join(MODELS_DIR, 'local', 'glove-100d-sif');
/** The same generator's table with every token (a reference model: never served). */
const fullDir = join(REFERENCE_MODELS_DIR, 'local', 'glove-100d-sif-table-full');

let texts: string[];
let reference: PreTrainedTokenizer;
/** The compact form with the full vocabulary (no cut), built like the shipped one. */
let full: StaticTable;
let shipped: StaticTable;

function readTable(dir: string): StaticTable {
  const config = JSON.parse(readFileSync(join(dir, STATIC_TABLE_FILES.config), 'utf8')) as unknown;
  const header = staticTableHeader(config, dir);
  return parseStaticTable(header, readFileSync(join(dir, STATIC_TABLE_FILES.vocab), 'utf8'), readFileSync(join(dir, STATIC_TABLE_FILES.table)), dir);
}

beforeAll(async () => {
  ensureModels('glove-100d-sif', 'glove-100d-sif-onnx', 'glove-100d-sif-table-full');
  const scifact = await loadDataset(shared('beir', 'scifact'));
  texts = [...scifact.docs.map((d) => passageText(d, spec)), ...[...scifact.queries.values()].map((q) => queryText(q, spec))];
  configureModelSource(resolveModelSpec('local/glove-100d-sif-onnx'), { localModelPath: REFERENCE_MODELS_DIR });
  reference = await AutoTokenizer.from_pretrained('local/glove-100d-sif-onnx');
  full = readTable(fullDir);
  shipped = readTable(shippedDir);
}, 120_000);

function referenceIds(text: string): number[] {
  const { input_ids } = reference(text, { truncation: true, max_length: spec.maxLength, return_tensor: false }) as { input_ids: number[] };
  return input_ids;
}

describe('tokenization equals tokenizer.json through transformers.js', () => {
  test(`on every SciFact document and query (full vocabulary: the same ids; the cut of ${GLOVE_SIF_KEEP}: ids past it are [UNK])`, () => {
    expect(texts.length).toBe(5183 + 1109);
    let differing = 0;
    let cutAway = 0;
    for (const text of texts) {
      const want = referenceIds(text);
      const got = full.tokenizer.encode(text);
      if (got.length !== want.length || got.some((id, i) => id !== want[i])) differing++;
      const cut = shipped.tokenizer.encode(text);
      const wantCut = want.map((id) => (id < GLOVE_SIF_KEEP ? id : 1));
      if (cut.length !== wantCut.length || cut.some((id, i) => id !== wantCut[i])) differing++;
      cutAway += want.filter((id) => id >= GLOVE_SIF_KEEP).length;
    }
    expect(differing).toBe(0);
    // The cut is not idle: SciFact has words past it (they become [UNK]).
    expect(cutAway).toBeGreaterThan(0);
  }, 120_000);

  test('on texts that exercise each rule: added tokens, punctuation, Unicode, surrogate pairs, lowercasing, truncation', () => {
    const edge = [
      '',
      '   \t\n ',
      'The [PAD] cat[UNK]sat [pad] [UNK][PAD]',
      "don't e-mail U.S.A. (p<0.05) 5'-UTF—dash … «quotes» ¿qué?",
      'İstanbul ΣΊΣΥΦΟΣ straße ﬁne Ǆ',
      'caf\u00e9 cafe\u0301 naïve résumé',
      'emoji 🧬 dna𝔘𝔫𝔦𝔠𝔬𝔡𝔢 lone \ud800 surrogate \udc00x',
      'non\u00a0breaking\u2003space\u3000ideographic\u200bzero-width',
      'tabs\tand\r\nnewlines\u2028separators\u2029here',
      '中文 テキスト 한국어 العربية हिन्दी',
      Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? 'protein,' : 'cell')).join(' '),
    ];
    for (const text of edge) expect(full.tokenizer.encode(text), JSON.stringify(text.slice(0, 60))).toEqual(referenceIds(text));
  });

  test('the vocabulary index finds every token and nothing else', () => {
    const index = VocabIndex.of(['[PAD]', '[UNK]', 'the', 'cat', 'café', 'the']);
    expect(['[PAD]', 'the', 'cat', 'café', 'dog', '', 'th', 'thee'].map((t) => index.get(t))).toEqual([0, 2, 3, 4, undefined, undefined, undefined, undefined]);
    expect(() => VocabIndex.of(['a\nb'])).toThrow(/line break/);
    expect(() => new WordTokenizer(['[PAD]'], { unkToken: '[UNK]', addedTokens: [], maxLength: 8 })).toThrow(/no "\[UNK\]"/);
  });
});

describe('vectors equal the fp32 ONNX graph within the quantization error', () => {
  test('on every SciFact document and query (un-normalized means)', async () => {
    ensureModels('glove-100d-sif-onnx');
    const onnx = await loadNodeEmbedder(resolveNodeModel(onnxDir, { normalize: false }), 'fp32');
    const want = await onnx.embed(texts);
    await onnx.dispose();
    const encoder = new StaticTableEncoder(full);
    const dim = full.header.dim;
    const got = new Float32Array(dim);
    const ids = new Int32Array(spec.maxLength);
    let worst = 0;
    for (let r = 0; r < texts.length; r++) {
      const n = encoder.embedInto(texts[r]!, got);
      // Rounding to the nearest int8 step moves each component of a row by at most half its scale.
      const count = full.tokenizer.encodeInto(texts[r]!, ids);
      expect(count).toBe(n);
      let bound = 0;
      for (let t = 0; t < count; t++) bound += full.scales[ids[t]!]! / 2;
      bound = bound / Math.max(count, 1) + 1e-6;
      for (let c = 0; c < dim; c++) {
        const error = Math.abs(got[c]! - want.data[r * dim + c]!);
        worst = Math.max(worst, error / bound);
        if (error > bound) expect.fail(`text ${r}, component ${c}: |${got[c]} − ${want.data[r * dim + c]}| > ${bound}`);
      }
    }
    expect(worst).toBeLessThanOrEqual(1);
  }, 180_000);

  test('the shipped table is the first rows of the full one, byte for byte', () => {
    const rows = shipped.header.rows;
    expect(rows).toBe(GLOVE_SIF_KEEP);
    expect(Buffer.from(shipped.values.buffer, shipped.values.byteOffset, shipped.values.byteLength).equals(Buffer.from(full.values.buffer, full.values.byteOffset, rows * full.header.dim))).toBe(true);
    expect(Array.from(shipped.scales)).toEqual(Array.from(full.scales.subarray(0, rows)));
  });
});

test('a query typed alone embeds as in a batch, with the model the corpus used', async () => {
  const embedder = await loadNodeEmbedder(resolveNodeModel('local/glove-100d-sif'));
  const queries = texts.slice(5183, 5183 + 50);
  const batch = await embedder.embed(queries);
  for (let q = 0; q < queries.length; q++) {
    const alone = await embedder.embed([queries[q]!]);
    expect(Array.from(alone.data)).toEqual(Array.from(batch.data.subarray(q * batch.dim, (q + 1) * batch.dim)));
  }
  await embedder.dispose();
});

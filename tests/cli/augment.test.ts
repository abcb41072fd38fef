/**
 * The command line of query augmentation on the synthetic collection (tests/lib/augment/synthetic.ts) as a
 * BEIR folder, with the real default encoder (GloVe): train-augment, eval and search with --retriever
 * augmented, augment-queries, and the refusal to evaluate on the split that trained the model; and with the
 * frozen transformer local/tiny-bert (offline), whose eval is the library's rankBatch measure of the model.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureModels } from '../lib/dense/models-fixture.ts';
import { syntheticCollection } from '../lib/augment/synthetic.ts';
import { tempDir } from '../temp-dir.ts';
import { cli, cliStdout } from './run-cli.ts';
import { parseModelFile } from '../../src/lib/augment/model-file.ts';
import { measureHeldOut } from '../../src/lib/augment/train.ts';
import { createAnalyzer } from '../../src/lib/analysis/analyzers.ts';
import { augmenterOf } from '../../src/cli/augment-model.ts';

/** The synthetic collection written as BEIR files: train and test qrels. */
function writeSynthetic(dir: string): string {
  const { docs, train, test } = syntheticCollection();
  const folder = join(dir, 'synthetic');
  mkdirSync(join(folder, 'qrels'), { recursive: true });
  writeFileSync(join(folder, 'corpus.jsonl'), docs.map((d) => JSON.stringify({ _id: d.id, title: d.title, text: d.text })).join('\n') + '\n');
  writeFileSync(join(folder, 'queries.jsonl'), [...train.queries, ...test.queries].map((q) => JSON.stringify({ _id: q.id, text: q.text })).join('\n') + '\n');
  const qrels = (split: typeof train) => ['query-id\tcorpus-id\tscore', ...[...split.qrels].flatMap(([q, docs]) => [...docs].map(([d, g]) => `${q}\t${d}\t${g}`))].join('\n') + '\n';
  writeFileSync(join(folder, 'qrels', 'train.tsv'), qrels(train));
  writeFileSync(join(folder, 'qrels', 'test.tsv'), qrels(test));
  return folder;
}

const TRAIN_FLAGS = ['--split', 'train', '--analyzer', 'standard', '--epochs', '40', '--lr', '0.01', '--batch-size', '10', '--lambda', '0.01', '--seed', '11', '--held-out', '0'];

describe('train-augment, eval, search and augment-queries', () => {
  let dataset = '';
  let model = '';
  let dir = '';

  beforeAll(async () => {
    ensureModels('glove-100d-sif');
    dir = tempDir('augment-cli-');
    dataset = writeSynthetic(dir);
    model = join(dir, 'model.json');
    await cliStdout(['train-augment', '--dataset', dataset, ...TRAIN_FLAGS, '--out', model]);
  }, 120_000);

  it('writes a model file naming its collection, split, encoder and analyzer; the same seed writes the same file', async () => {
    const file = JSON.parse(readFileSync(model, 'utf8'));
    expect(file.training).toMatchObject({ collection: 'synthetic', split: 'train', heldOut: { kind: 'none' } });
    expect(file.encoder.model).toBe('local/glove-100d-sif');
    expect(file.bm25.analyzer).toBe('standard');
    const again = join(dir, 'again.json');
    await cliStdout(['train-augment', '--dataset', dataset, ...TRAIN_FLAGS, '--out', again]);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(model, 'utf8'));
  }, 120_000);

  it('eval: BM25 finds nothing, the augmented queries find the unseen pairs; --json has terms per query and both latencies', async () => {
    const bm25 = JSON.parse(await cliStdout(['eval', '--dataset', dataset, '--split', 'test', '--analyzer', 'standard', '--json']));
    expect(bm25.metrics.ndcg_cut_10).toBe(0);
    const augmented = JSON.parse(await cliStdout(['eval', '--dataset', dataset, '--split', 'test', '--retriever', 'augmented', '--augmenter', model, '--json']));
    expect(augmented.metrics.ndcg_cut_10).toBeGreaterThan(0.5);
    expect(augmented.terms_per_query).toBeGreaterThan(0);
    expect(augmented.bm25_query_ms_mean).toBeGreaterThanOrEqual(0);
    expect(augmented.query_ms_mean).toBeGreaterThanOrEqual(0);
    expect(augmented.settings).toMatchObject({ augmenter: 'model.json', trained_on: 'synthetic train' });
  });

  it('refuses to evaluate the model on the split that trained it', async () => {
    const { code, stderr } = await cli(['eval', '--dataset', dataset, '--split', 'train', '--retriever', 'augmented', '--augmenter', model]);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/trained on synthetic train/);
  });

  it('a model trained on a share of the only judged split is evaluated on the held-out rest of it', async () => {
    const shared = join(dir, 'share.json');
    await cliStdout(['train-augment', '--dataset', dataset, ...TRAIN_FLAGS.slice(2), '--held-out', '0.25', '--split', 'test', '--out', shared]);
    const report = JSON.parse(await cliStdout(['eval', '--dataset', dataset, '--split', 'test', '--retriever', 'augmented', '--augmenter', shared, '--json']));
    const file = JSON.parse(readFileSync(shared, 'utf8'));
    expect(report.queries).toBe(file.training.heldOut.queries);
    expect(report.queries_from).toMatch(/held out from training \(share 0.25, seed 11\)/);
  }, 60_000);

  it('search --json gives the hits and the expanded query with its added terms', async () => {
    const out = JSON.parse(await cliStdout(['search', '--dataset', dataset, '--retriever', 'augmented', '--augmenter', model, '--query', 'amber birch', '--json']));
    expect(out.hits.length).toBeGreaterThan(0);
    expect(out.expanded.some((t: { added: boolean }) => t.added)).toBe(true);
    for (const term of out.expanded) expect(Object.keys(term).sort()).toEqual(['added', 'term', 'weight']);
  });

  it('augment-queries writes one Lucene query or JSON line per test query', async () => {
    const lucene = (await cliStdout(['augment-queries', '--dataset', dataset, '--split', 'test', '--augmenter', model, '--format', 'lucene'])).trimEnd().split('\n');
    const jsonl = (await cliStdout(['augment-queries', '--dataset', dataset, '--split', 'test', '--augmenter', model, '--format', 'jsonl'])).trimEnd().split('\n');
    expect(lucene.length).toBe(syntheticCollection().test.queries.length);
    expect(jsonl.length).toBe(lucene.length);
    for (const line of lucene) expect(line).toMatch(/^q\d+-\d+\t(\S+\^[\d.e-]+)( \S+\^[\d.e-]+)*$/);
    const first = JSON.parse(jsonl[0]!);
    expect(Object.keys(first)).toEqual(['qid', 'weights']);
    expect(Object.values(first.weights).every((w) => typeof w === 'number' && w > 0)).toBe(true);
  });
});

describe('train-augment --encoder local/tiny-bert (a frozen transformer, offline)', () => {
  let dataset = '';
  let model = '';

  beforeAll(async () => {
    ensureModels('tiny-bert');
    const dir = tempDir('augment-cli-bert-');
    dataset = writeSynthetic(dir);
    model = join(dir, 'bert.json');
    await cliStdout(['train-augment', '--dataset', dataset, ...TRAIN_FLAGS, '--encoder', 'local/tiny-bert', '--out', model]);
  }, 120_000);

  it('writes a model naming the transformer and its weights; eval ranks as rankBatch does with the model file', async () => {
    const file = JSON.parse(readFileSync(model, 'utf8'));
    expect(file.encoder).toMatchObject({ model: 'local/tiny-bert', dtype: 'fp32', trainedRows: false, dim: 32 });
    const report = JSON.parse(await cliStdout(['eval', '--dataset', dataset, '--split', 'test', '--retriever', 'augmented', '--augmenter', model, '--json']));
    const { index, bm25, test } = syntheticCollection();
    const parsed = parseModelFile(readFileSync(model, 'utf8'));
    const augmenter = await augmenterOf(parsed, createAnalyzer('standard'));
    const measure = await measureHeldOut(index, augmenter, bm25, test);
    await augmenter.encoder.dispose?.();
    expect(report.metrics.ndcg_cut_10).toBeGreaterThan(0.5);
    expect(report.metrics.ndcg_cut_10).toBeCloseTo(measure.ndcg_cut_10, 4);
    expect(report.metrics.recall_100).toBeCloseTo(measure.recall_100, 4);
  }, 60_000);

  it('augment-queries writes the transformer model’s queries', async () => {
    const jsonl = (await cliStdout(['augment-queries', '--dataset', dataset, '--split', 'test', '--augmenter', model])).trimEnd().split('\n');
    expect(jsonl.length).toBe(syntheticCollection().test.queries.length);
  }, 60_000);

  it('refuses --train-rows: a transformer is used frozen', async () => {
    const { code, stderr } = await cli(['train-augment', '--dataset', dataset, ...TRAIN_FLAGS, '--encoder', 'local/tiny-bert', '--train-rows', '--out', join(tempDir('augment-cli-bert-'), 'x.json')]);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/--train-rows: local\/tiny-bert is a transformer, used frozen/);
  }, 60_000);
});

/**
 * Vectors from files in Debian's chromium, on the built app and the starter collection: Pyserini-format
 * vectors the test writes (seeded random, one per starter document and query) are imported from the dense
 * column's settings (a query file of another dimension first: a message, nothing stored); the column then ranks by them (its top hits equal a brute-force cosine top-k computed
 * here from the raw values), survives a reload, says so when a typed query has no vector, and Evaluate
 * shows the figures of the CLI's `eval --vectors … --query-vectors …` on the same files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { loadDataset } from '../../src/cli/dataset.ts';
import type { BeirCollection } from '../../src/lib/data/beir.ts';
import { textSource } from '../../src/lib/data/lines.ts';
import { readTrecRun } from '../../src/lib/data/trec.ts';
import { judgedQueries } from '../../src/lib/data/beir.ts';
import { evaluateRunReport, REPORT_MEASURES } from '../../src/lib/eval/run-report.ts';
import { readFileSync } from 'node:fs';
import { repoRoot } from '../shared-dir.ts';
import { tempDir } from '../temp-dir.ts';
import { cliStdout } from '../cli/run-cli.ts';
import { bruteForceCosine, pyseriniJsonl, randomVectors } from '../lib/import/vector-fixtures.ts';
import { metricsFresh, rows, settled } from './app-page.ts';
import { launch, screenshot, waitInPage, type BrowserSession } from './harness.ts';

const DIM = 24;

let session: BrowserSession;
let appUrl: string;
let starter: BeirCollection;
let dir: string;
let docIds: string[];
let docVectors: number[][];
let queryVectors: Map<string, number[]>;
/** The CLI's five dashboard figures for the dense column from the files, and its nDCG@10 as `eval --json` prints it. */
let cliFigures: string[];
let cliNdcg: string;

const column = (page: Page, n: number): Locator => page.locator('article.column').nth(n);

beforeAll(async () => {
  appUrl = inject('appUrl');
  const starterDir = join(repoRoot, 'src/lib/starter/data');
  starter = await loadDataset(starterDir, { splits: ['test'] });
  docIds = starter.docs.map((doc) => doc.id);
  docVectors = randomVectors(docIds.length, DIM, 31);
  const queryIds = [...starter.queries.keys()];
  const vectors = randomVectors(queryIds.length, DIM, 32);
  queryVectors = new Map(queryIds.map((id, i) => [id, vectors[i]!]));
  dir = tempDir('browser-vectors-');
  writeFileSync(join(dir, 'embeddings.jsonl'), pyseriniJsonl(docIds, docVectors));
  writeFileSync(join(dir, 'query-embeddings.jsonl'), pyseriniJsonl(queryIds, vectors));
  writeFileSync(join(dir, 'short-queries.jsonl'), pyseriniJsonl(queryIds, vectors.map((v) => v.slice(1))));
  const stdout = await cliStdout(['eval', '--dataset', starterDir, '--split', 'test', '--retriever', 'dense', '--vectors', join(dir, 'embeddings.jsonl'), '--query-vectors', join(dir, 'query-embeddings.jsonl'), '--run-out', join(dir, 'dense.run'), '--json']);
  cliNdcg = (JSON.parse(stdout) as { metrics: Record<string, number> }).metrics.ndcg_cut_10!.toFixed(4);
  const { run } = await readTrecRun(textSource(readFileSync(join(dir, 'dense.run'), 'utf8')), { file: 'dense.run' });
  const qrels = starter.qrels.get('test')!;
  const report = evaluateRunReport(qrels, new Map(judgedQueries(starter.queries, qrels).map((query) => [query.id, run.get(query.id) ?? []])));
  cliFigures = REPORT_MEASURES.map((m) => report.aggregate[m.key].toFixed(4));
  session = await launch();
}, 300_000);

afterAll(async () => {
  await session?.close();
});

describe('vectors from files (starter collection)', () => {
  test('imported from the dense column’s settings (a bad file first stores nothing), the column ranks by them', async () => {
    const { page, errors } = session;
    await page.goto(appUrl);
    await settled(page);
    const dense = column(page, 1);
    await dense.getByRole('button', { name: /Settings of Dense/ }).click();
    await dense.getByLabel('model', { exact: true }).selectOption({ label: 'Vectors from files…' });
    // A query file of another dimension: a message naming the file, and nothing stored.
    await dense.getByLabel('documents', { exact: true }).setInputFiles(join(dir, 'embeddings.jsonl'));
    await dense.getByLabel('queries', { exact: true }).setInputFiles(join(dir, 'short-queries.jsonl'));
    await dense.getByRole('button', { name: 'Import vectors' }).click();
    await page.getByRole('alert').filter({ hasText: 'short-queries.jsonl:1: query vectors of 23 dimensions, the corpus vectors have 24' }).waitFor({ timeout: 60_000 });
    const importedSets = async () => (await rows<{ modelId: string }>(page, 'embeddingSets')).filter((row) => row.modelId.startsWith('vectors/')).length;
    expect(await importedSets()).toBe(0);
    await dense.getByLabel('queries', { exact: true }).setInputFiles(join(dir, 'query-embeddings.jsonl'));
    await dense.getByRole('button', { name: 'Import vectors' }).click();
    await expect.poll(() => dense.locator('h2').textContent(), { timeout: 60_000 }).toBe('Dense: embeddings.jsonl');
    await settled(page);
    const qid = new URL(page.url()).searchParams.get('qid')!;
    const expected = bruteForceCosine(queryVectors.get(qid)!, docIds, docVectors, 10).map((hit) => hit.docId);
    const shown = await dense.locator('button.hit .docid').allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(expected.slice(0, shown.length));
    expect(await importedSets()).toBe(2);
    await expect.poll(() => new URL(page.url()).searchParams.getAll('col')[1]).toMatch(/^dense;m=vectors\/[0-9a-f]{8}\/embeddings\.jsonl;dt=fp32;s=exact$/);
    await screenshot(page, 'vectors-column');
    expect(errors).toEqual([]);
  });

  test('after a reload the column still ranks from the stored vectors; a typed query gets a message', async () => {
    const { page, errors } = session;
    await page.reload();
    await settled(page);
    expect(await column(page, 1).locator('h2').textContent()).toBe('Dense: embeddings.jsonl');
    await page.getByRole('button', { name: 'New query' }).click();
    await page.getByLabel('Query text').fill('a query typed here');
    await waitInPage(page, () => document.querySelectorAll('article.column')[1]?.querySelector('.error')?.textContent?.includes('no vector for the query') === true, undefined, { timeout: 60_000 });
    expect(await column(page, 1).locator('.error').textContent()).toContain('vectors from embeddings.jsonl rank only the queries whose vectors were imported');
    expect(errors).toEqual([]);
  });

  test('Evaluate shows the CLI’s figures for the same files', async () => {
    const { page, errors } = session;
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Evaluate' }).click();
    await page.getByRole('button', { name: /^Run evaluation/ }).click();
    await metricsFresh(page, 3, { timeout: 240_000 });
    const figures = await page.locator('[data-testid="metrics-table"] tr[data-column="2"] td.value .figure').allTextContents();
    expect(figures).toEqual(cliFigures);
    expect(figures[0]).toBe(cliNdcg);
    expect(errors).toEqual([]);
  });
});

/**
 * judged@10, judged-only and the BEIR analyses in Debian's chromium, on the built app and the starter
 * collection (imported on first visit, with graded qrels) and the three default columns (BM25 | GloVe |
 * LEDR; needs `npm run models`). One profile, tests in order: Explore shows judged@10 per column with its
 * unjudged top 10 → Evaluate: judged@10 mean → judged only changes nDCG@10 and survives a reload → the
 * length plot and the overlap matrix hold the numbers computed here from the exported runs.
 *
 * Expected figures are computed in Node from the runs the app exports (TREC text) with src/lib: judged@k
 * and condensed lists (eval/judged.ts), trec_eval-equal measures (eval/run-report.ts), word lengths and the
 * overlap matrix (run-analysis/).
 */
import { existsSync, readFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { judgedCoverage } from '../../src/app/engine/query-metrics.ts';
import { loadDataset } from '../../src/cli/dataset.ts';
import { MODELS_DIR } from '../../src/cli/dense.ts';
import type { BeirCollection } from '../../src/lib/data/beir.ts';
import { textSource } from '../../src/lib/data/lines.ts';
import { readTrecRun } from '../../src/lib/data/trec.ts';
import { condenseRun, judgedAtK } from '../../src/lib/eval/judged.ts';
import { evaluateRunReport } from '../../src/lib/eval/run-report.ts';
import { retrievedLengths, shareBelow, summarizeLengths, wordCount } from '../../src/lib/run-analysis/document-lengths.ts';
import { overlapMatrix, pairOf } from '../../src/lib/run-analysis/overlap-matrix.ts';
import type { Qrels, Run } from '../../src/lib/types.ts';
import { skipWithout } from '../requirements.ts';
import { repoRoot } from '../shared-dir.ts';
import { metricsFresh, settled } from './app-page.ts';
import { launch, screenshot, type BrowserSession } from './harness.ts';

const MODEL = 'local/glove-100d-sif';
const modelBuilt = existsSync(join(MODELS_DIR, MODEL, 'config.json'));
const skipNoModel = skipWithout('models', modelBuilt, `${MODEL} is not built in ${MODELS_DIR} (npm run models)`);

let session: BrowserSession;
let appUrl: string;
let starter: BeirCollection;
let qrels: Qrels;
/** The runs the app exports, by 1-based column position. */
const runs = new Map<number, Run>();

const f4 = (x: number) => x.toFixed(4);
const views = (page: Page) => page.getByRole('navigation', { name: 'Views' });

async function exportedRun(page: Page, position: number): Promise<Run> {
  const download = page.waitForEvent('download');
  await page.locator(`button[data-export="run"][data-column="${position}"]`).click();
  const file = await download;
  const path = join(tempDir('rp-analyses-'), file.suggestedFilename());
  await file.saveAs(path);
  const { run } = await readTrecRun(textSource(readFileSync(path, 'utf8')), { file: file.suggestedFilename(), gzip: false });
  return run;
}

/** The figure a metrics-table cell shows (without the best star or marks). */
async function cell(page: Page, position: number, measure: string): Promise<string> {
  return (await page.locator(`[data-testid="metrics-table"] tr[data-column="${position}"] td[data-measure="${measure}"] .figure`).textContent()) ?? '';
}

beforeAll(async () => {
  appUrl = inject('appUrl');
  starter = await loadDataset(join(repoRoot, 'src/lib/starter/data'), { splits: ['test'] });
  qrels = starter.qrels.get('test')!;
  session = await launch();
});

afterAll(async () => {
  await session?.close();
});

describe.skipIf(skipNoModel)('judged@10, judged only and the analyses (starter collection)', () => {
  test('Explore: each column shows judged@10 of its top 10 and lists the unjudged documents', async () => {
    const { page, errors } = session;
    await page.goto(appUrl);
    await settled(page);
    const cards = page.locator('article.column');
    const judgments = qrels.get('q01')!;
    let warned = 0;
    for (let i = 0; i < 3; i++) {
      const card = cards.nth(i);
      const value = Number(await card.getByTestId('judged-value').textContent());
      expect(value).toBeGreaterThan(0);
      expect(value).toBeLessThanOrEqual(1);
      // The unjudged list holds exactly the top-10 documents without a judgment: judged@10 = (ranked in the
      // top 10 − unjudged) / 10 (a column may rank fewer than 10 documents).
      const chips = await card.locator('[data-testid="unjudged-list"] .chip-id').allTextContents();
      const ranked = Math.min(10, await card.locator('button.hit').count());
      const shownIds = (await card.locator('button.hit').allTextContents()).slice(0, 10);
      expect(chips.every((id) => !judgments.has(id) && shownIds.some((text) => text.includes(id)))).toBe(true);
      expect(f4(value)).toBe(f4((ranked - chips.length) / 10));
      const warning = card.getByTestId('judged-warning');
      expect(await warning.count()).toBe(value < 0.9 ? 1 : 0);
      if (value < 0.9) {
        warned++;
        expect(await warning.getAttribute('aria-label')).toMatch(/of the top 10 positions hold a judged document/);
      }
    }
    console.log(`[analyses] q01 judged@10: ${(await page.getByTestId('judged-value').allTextContents()).join(' | ')}; ${warned} columns warned`);

    // A chip opens that document's detail (the dense column ranks unjudged documents for q01).
    const first = page.locator('[data-testid="unjudged-list"] button').first();
    expect(await first.count()).toBe(1);
    const docId = await first.locator('.chip-id').textContent();
    await first.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(docId!);
    await screenshot(page, 'analyses-explore-unjudged-detail');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await screenshot(page, 'analyses-explore-judged');
    expect(errors).toEqual([]);
  });

  test('Evaluate: judged@10 means equal judgedAtK of the exported runs', async () => {
    const { page, errors } = session;
    await views(page).getByRole('button', { name: 'Evaluate' }).click();
    await page.getByRole('button', { name: 'Run evaluation (3 columns)' }).click();
    await metricsFresh(page, 3, { timeout: 300_000 });
    for (const position of [1, 2, 3]) runs.set(position, await exportedRun(page, position));
    for (const [position, run] of runs) {
      const coverage = judgedAtK(run, qrels, 10);
      expect(await cell(page, position, 'judged_10')).toBe(f4(coverage.mean));
      // Explore's per-query figure is the same measure.
      expect(f4(judgedCoverage(qrels.get('q01')!, run.get('q01') ?? []).judged)).toBe(f4(coverage.perQuery.find((q) => q.qid === 'q01')!.judged));
    }
    const low = [...runs.values()].flatMap((run) => judgedAtK(run, qrels, 10).perQuery.filter((q) => q.judged < 0.9).map((q) => q.qid));
    expect(await page.getByTestId('judged-rows').textContent()).toContain(`${new Set(low).size} of ${qrels.size} queries`);
    expect(await page.getByTestId('metrics-mode').textContent()).toMatch(/^All documents/);
    expect(errors).toEqual([]);
  });

  test('judged only: nDCG@10 of condensed lists, different where unjudged documents were ranked; the choice survives a reload', async () => {
    const { page, errors } = session;
    const before = new Map<number, string>();
    for (const position of runs.keys()) before.set(position, await cell(page, position, 'ndcg_cut_10'));
    await page.getByTestId('judged-only').check();
    await expect.poll(() => page.getByTestId('metrics-mode').textContent()).toMatch(/^Judged only/);
    let changed = 0;
    for (const [position, run] of runs) {
      const full = evaluateRunReport(qrels, run).aggregate.ndcg_cut_10;
      const condensed = evaluateRunReport(qrels, condenseRun(run, qrels)).aggregate.ndcg_cut_10;
      expect(before.get(position)).toBe(f4(full));
      expect(await cell(page, position, 'ndcg_cut_10')).toBe(f4(condensed));
      if (f4(full) !== f4(condensed)) changed++;
      console.log(`[analyses] column ${position} nDCG@10 ${f4(full)} → judged only ${f4(condensed)}`);
    }
    // Every default column ranks unjudged documents in some top 10 of the starter.
    expect(changed).toBeGreaterThan(0);
    await expect.poll(() => page.url()).toContain('jo=1');
    await page.reload();
    await page.getByTestId('metrics-table').locator('tr[data-status="fresh"]').nth(2).waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('judged-only').isChecked()).toBe(true);
    expect(await page.getByTestId('metrics-mode').textContent()).toMatch(/^Judged only/);
    const [position, run] = [...runs][0]!;
    expect(await cell(page, position, 'ndcg_cut_10')).toBe(f4(evaluateRunReport(qrels, condenseRun(run, qrels)).aggregate.ndcg_cut_10));
    await page.getByTestId('judged-only').uncheck();
    await expect.poll(() => page.getByTestId('metrics-mode').textContent()).toMatch(/^All documents/);
    expect(errors).toEqual([]);
  });

  test('analyses: top-10 lengths against the corpus, and the overlap matrix, equal the computation from the exported runs', async () => {
    const { page, errors } = session;
    await page.getByTestId('analyses').waitFor({ timeout: 120_000 });
    const lengths = new Map(starter.docs.map((doc) => [doc.id, wordCount(doc.title, doc.text)]));
    const table = page.getByTestId('length-table');
    const stat = (row: string, name: string) => table.locator(`tr[data-row="${row}"] td[data-stat="${name}"]`).textContent();
    const corpus = summarizeLengths([...lengths.values()]);
    expect(await stat('corpus', 'count')).toBe(String(starter.docs.length));
    expect(await stat('corpus', 'median')).toBe(String(corpus.median));
    expect(await stat('corpus', 'mean')).toBe(corpus.mean.toFixed(1));
    const qids = [...qrels.keys()];
    for (const [position, run] of runs) {
      const top = retrievedLengths(run, (id) => lengths.get(id), { depth: 10, queryIds: qids });
      const summary = summarizeLengths(top.lengths);
      expect(top.unknown).toBe(0);
      expect(await stat(String(position), 'count')).toBe(String(summary.count));
      expect(await stat(String(position), 'median')).toBe(String(summary.median));
      expect(await stat(String(position), 'quartiles')).toBe(`${summary.q1}–${summary.q3}`);
      expect(await stat(String(position), 'mean')).toBe(summary.mean.toFixed(1));
      expect(await stat(String(position), 'below-median')).toBe(`${(shareBelow(top.lengths, corpus.median) * 100).toFixed(1)}%`);
      console.log(`[analyses] column ${position}: top-10 median ${summary.median} words (corpus ${corpus.median}), mean ${summary.mean.toFixed(1)} (corpus ${corpus.mean.toFixed(1)})`);
    }

    const matrix = overlapMatrix([1, 2, 3].map((p) => runs.get(p)!), { depth: 10, queryIds: qids });
    for (const [i, j] of [[0, 1], [0, 2], [1, 2]] as const) {
      const pair = pairOf(matrix, i, j)!.overlap;
      for (const key of [`${i + 1},${j + 1}`, `${j + 1},${i + 1}`]) {
        const shown = page.locator(`[data-testid="overlap-matrix"] td[data-pair="${key}"]`);
        expect(await shown.locator('[data-value="rbo"]').textContent()).toBe(f4(pair.meanRbo));
        expect(await shown.locator('[data-value="jaccard"]').textContent()).toBe(f4(pair.meanJaccard));
      }
      console.log(`[analyses] columns ${i + 1}–${j + 1}: mean RBO ${f4(pair.meanRbo)}, Jaccard ${f4(pair.meanJaccard)}`);
    }

    // The per-query plot of the chosen pair (1, 3): its table lists every query with the pair's values.
    await page.locator('[data-testid="overlap-matrix"] td[data-pair="1,3"] button').click();
    await page.getByTestId('overlap-plot').waitFor();
    const section = page.locator('section[aria-labelledby="eval-analyses"]');
    // The sticky app bar would cover the top of an element screenshot: hidden (through the CSSOM) meanwhile.
    await page.evaluate(() => document.querySelectorAll<HTMLElement>('header').forEach((header) => (header.style.visibility = 'hidden')));
    await section.scrollIntoViewIfNeeded();
    // Two frames drawn after the scroll: the charts' resize (a ResizeObserver, run with the next frame) is painted.
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    await section.screenshot({ path: join(repoRoot, 'test-artifacts', 'analyses-plots.png') });
    await page.evaluate(() => document.querySelectorAll<HTMLElement>('header').forEach((header) => (header.style.visibility = '')));
    await section.getByLabel('List the queries').check();
    const perQuery = pairOf(matrix, 0, 2)!.overlap.perQuery;
    const rows = page.getByTestId('overlap-table').locator('tbody tr');
    expect(await rows.count()).toBe(perQuery.length);
    for (const q of perQuery.slice(0, 5)) {
      const row = page.locator(`[data-testid="overlap-table"] tr[data-qid="${q.qid}"] td`);
      expect(await row.allTextContents()).toEqual([f4(q.rbo), f4(q.jaccard)]);
    }
    await section.getByLabel('List the queries').uncheck();
    await screenshot(page, 'analyses-evaluate');
    expect(errors).toEqual([]);
  });
});

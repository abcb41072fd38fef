/**
 * The Explore view in Debian's chromium, on the built app and the starter collection (opened on first
 * visit), with the real workers: BM25 in WebAssembly, GloVe 100d SIF embeddings (needs `npm run models`).
 * One profile, tests in order: three columns with metrics → keyboard → Back → hit detail → k1 → typed
 * query → imported run → many columns in a narrow window → reload without rebuilding.
 *
 * Expected numbers come from Node, computed here with the same core the CLI uses: BM25 from the TypeScript
 * reference (equal to Lucene 8.7, see tests/lib/bm25), dense from src/cli/dense.ts on the same model files
 * (the browser's vectors equal Node's within 1e-4, tests/browser/dense.test.ts), LEDR with
 * src/lib/fusion/ledr.ts, metrics with src/lib/eval (equal to trec_eval 9.0.8).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { denseRetrieve, MODELS_DIR } from '../../src/cli/dense.ts';
import { loadDataset } from '../../src/cli/dataset.ts';
import { englishAnalyzer } from '../../src/lib/analysis/english-analyzer.ts';
import { indexCorpus } from '../../src/lib/bm25/bm25-corpus.ts';
import { explainBm25 } from '../../src/lib/bm25/bm25-explain.ts';
import type { Bm25Index } from '../../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../../src/lib/bm25/bm25-search.ts';
import type { BeirCollection } from '../../src/lib/data/beir.ts';
import { evaluate } from '../../src/lib/eval/evaluate.ts';
import { lexiconEnhancedDense } from '../../src/lib/fusion/ledr.ts';
import type { Hit, Qrels, Run } from '../../src/lib/types.ts';
import { skipWithout } from '../requirements.ts';
import { repoRoot } from '../shared-dir.ts';
import { recordedJobs, recordJobs, rows, settled } from './app-page.ts';
import { ARTIFACTS_DIR, launch, screenshot, waitInPage, type BrowserSession } from './harness.ts';

const MODEL = 'local/glove-100d-sif';
const modelBuilt = existsSync(join(MODELS_DIR, MODEL, 'config.json'));
// Missing models fail the file with the reason (a local opt-out: RP_ALLOW_SKIP=models, tests/requirements.ts).
const skipNoModel = skipWithout('models', modelBuilt, `${MODEL} is not built in ${MODELS_DIR} (npm run models)`);

let session: BrowserSession;
let appUrl: string;
let starter: BeirCollection;
let qrels: Qrels;
let index: Bm25Index;
let denseRun: Run;
let ledrRun: Run;
const analyzer = englishAnalyzer();

/** trec_eval's four Explore measures of one ranking (ndcg_cut.10, recall.100, recip_rank -M 10, map). */
function expectedMetrics(qid: string, hits: Hit[]): string[] {
  const one = new Map([[qid, qrels.get(qid)!]]);
  const run = new Map([[qid, hits]]);
  const main = evaluate(one, run, { measures: ['ndcg_cut.10', 'recall.100', 'map'], complete: true }).all;
  const mrr = evaluate(one, run, { measures: ['recip_rank'], complete: true, maxDocs: 10 }).all;
  return [main['ndcg_cut_10']!, main['recall_100']!, mrr['recip_rank']!, main['map']!].map((v) => v.toFixed(4));
}

function bm25Hits(qid: string, k1 = 0.9, b = 0.4): Hit[] {
  const query = starter.queries.get(qid)!;
  return searchBm25(index, { id: qid, terms: analyzer.analyze(query.text) }, { k: 1000, params: { k1, b } });
}

const column = (page: Page, n: number): Locator => page.locator('article.column').nth(n);

/** The four metric values a column shows. */
async function shownMetrics(page: Page, n: number): Promise<string[]> {
  return column(page, n).locator('dl.metrics .value').allTextContents();
}

beforeAll(async () => {
  appUrl = inject('appUrl');
  starter = await loadDataset(join(repoRoot, 'src/lib/starter/data'), { splits: ['test'] });
  qrels = starter.qrels.get('test')!;
  index = indexCorpus(starter.docs, analyzer);
  if (!skipNoModel) {
    const queries = [...starter.queries.values()];
    denseRun = (await denseRetrieve({ docs: starter.docs, queries, model: MODEL })).run;
    const candidates = new Map(queries.map((q) => [q.id, bm25Hits(q.id).map((h) => h.docId)]));
    const cosines = (await denseRetrieve({ docs: starter.docs, queries, model: MODEL, candidates })).run;
    ledrRun = new Map(queries.map((q) => [q.id, lexiconEnhancedDense(bm25Hits(q.id), new Map(cosines.get(q.id)!.map((h) => [h.docId, h.score])))]));
  }
  session = await launch();
  await recordJobs(session.page);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(skipNoModel)('Explore view (starter collection, BM25 | GloVe | LEDR)', () => {
  test('opens with three columns ranking the first judged query, each with its metrics', async () => {
    const { page, errors } = session;
    const started = Date.now();
    await page.goto(appUrl);
    await settled(page);
    const ready = Date.now() - started;
    const headings = await page.locator('article.column h2').allTextContents();
    expect(headings).toEqual(['BM25 (k1 0.9, b 0.4)', 'Dense: glove-100d-sif', 'LEDR (K 1000)']);
    expect(await page.getByLabel('Query text').inputValue()).toBe(starter.queries.get('q01')!.text);
    expect(await shownMetrics(page, 0)).toEqual(expectedMetrics('q01', bm25Hits('q01')));
    expect(await shownMetrics(page, 1)).toEqual(expectedMetrics('q01', denseRun.get('q01')!));
    expect(await shownMetrics(page, 2)).toEqual(expectedMetrics('q01', ledrRun.get('q01')!));
    // The starter's teacher note and the query kind are shown.
    expect(await page.locator('.querybar .note').textContent()).toContain((starter.queries.get('q01')!.metadata as { note: string }).note);
    // The index was built in a worker with a job in the tray; the dense vectors came with the model (no
    // embedding), whose table loads when text is typed (below).
    const jobs = await recordedJobs(page);
    expect(jobs.some((t) => t.startsWith('Building BM25 index (english)'))).toBe(true);
    expect(jobs.some((t) => t.startsWith('Embedding Starter'))).toBe(false);
    // The address is written at once for a first change, and up to WRITE_DELAY_MS (url-sync.svelte.ts) later
    // for the changes just after it.
    await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe('q01');
    await expect.poll(() => new URL(page.url()).searchParams.getAll('col')).toEqual([
      'bm25;k1=0.9;b=0.4;an=english',
      'dense;m=local/glove-100d-sif;dt=q8;s=exact',
      'ledr;K=1000;k1=0.9;b=0.4;an=english;m=local/glove-100d-sif;dt=q8;s=exact',
    ]);
    console.log(`[explore] first visit: starter imported, BM25 index built, GloVe loaded and corpus embedded, three columns ranked in ${ready} ms`);
    console.log(`[explore] ${(await page.locator('.status').allTextContents()).map((s) => s.trim()).join(' | ')}`);
    await screenshot(page, 'explore-initial');
    expect(errors).toEqual([]);
  });

  test('J goes to the next query (a semantic one: BM25 finds none of its relevant documents), Back returns', async () => {
    const { page, errors } = session;
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('j');
    await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe('q02');
    await settled(page);
    expect(await page.getByLabel('Query text').inputValue()).toBe(starter.queries.get('q02')!.text);
    expect(await shownMetrics(page, 0)).toEqual(['0.0000', '0.0000', '0.0000', '0.0000']);
    expect(await shownMetrics(page, 1)).toEqual(expectedMetrics('q02', denseRun.get('q02')!));
    expect(await column(page, 0).locator('.missed .chip-rank').allTextContents()).toEqual(['not retrieved', 'not retrieved']);
    await screenshot(page, 'explore-next-query');
    await page.goBack();
    await expect.poll(() => page.getByLabel('Query text').inputValue()).toBe(starter.queries.get('q01')!.text);
    await page.goForward();
    await expect.poll(() => page.getByLabel('Query text').inputValue()).toBe(starter.queries.get('q02')!.text);
    await settled(page);
    expect(errors).toEqual([]);
  });

  test('Enter on a LEDR hit opens its detail: the BM25 term table and the product cosine × BM25', async () => {
    const { page, errors } = session;
    const first = column(page, 2).locator('button.hit').first();
    const docId = (await first.locator('.docid').textContent())!;
    const expectedTop = ledrRun.get('q02')![0]!;
    expect(docId).toBe(expectedTop.docId);
    await first.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.locator('table').first().waitFor();
    await expect.poll(() => dialog.locator('.formula.big').textContent()).toMatch(/cosine × BM25 = [\d.]+ × [\d.]+ = [\d.]+/);
    const formula = (await dialog.locator('.formula.big').textContent())!;
    const [, cosine, bm25, product] = /= ([\d.]+) × ([\d.]+) = ([\d.]+)/.exec(formula)!;
    const explanation = explainBm25(index, { terms: analyzer.analyze(starter.queries.get('q02')!.text) }, docId);
    expect(bm25).toBe(explanation.score.toFixed(4));
    expect(product).toBe(expectedTop.score.toFixed(4));
    expect(Number(cosine) * explanation.score).toBeCloseTo(expectedTop.score, 3);
    // One row per distinct query term, each with its contribution; the contributions' total is the score.
    const rows = dialog.locator('.bm25 tbody tr');
    expect(await rows.count()).toBe(explanation.terms.length);
    expect(await dialog.locator('.bm25 tbody th').allTextContents()).toEqual(explanation.terms.map((t) => t.term));
    expect(await dialog.locator('.bm25 tbody td:nth-of-type(1)').allTextContents()).toEqual(explanation.terms.map((t) => String(t.boost)));
    expect(await dialog.locator('.bm25 tfoot td').textContent()).toBe(explanation.score.toFixed(4));
    expect(await dialog.locator('.params strong').textContent()).toBe(explanation.lengthNorm.toFixed(4));
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'explore-detail-ledr.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('the picker finds a query; k1 changes BM25 live (scores and nDCG) without rebuilding the index', async () => {
    const { page, errors } = session;
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    await page.getByLabel('Search the queries by id or text').fill('ENIAC');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe('q16');
    await settled(page);
    expect(await shownMetrics(page, 0)).toEqual(expectedMetrics('q16', bm25Hits('q16')));
    const scoresBefore = await column(page, 0).locator('.score').allTextContents();
    const jobsBefore = (await recordedJobs(page)).length;

    await column(page, 0).getByRole('button', { name: /Settings of BM25/ }).click();
    await column(page, 0).getByLabel('k1', { exact: true }).fill('2');
    await expect.poll(() => column(page, 0).locator('h2').textContent()).toBe('BM25 (k1 2, b 0.4)');
    await settled(page);
    const expected = expectedMetrics('q16', bm25Hits('q16', 2, 0.4));
    expect(expected).not.toEqual(expectedMetrics('q16', bm25Hits('q16')));
    expect(await shownMetrics(page, 0)).toEqual(expected);
    const scoresAfter = await column(page, 0).locator('.score').allTextContents();
    expect(scoresAfter).toEqual(bm25Hits('q16', 2, 0.4).slice(0, 10).map((h) => h.score.toFixed(4)));
    expect(scoresAfter).not.toEqual(scoresBefore);
    expect((await recordedJobs(page)).length).toBe(jobsBefore);
    await expect.poll(() => new URL(page.url()).searchParams.getAll('col')[0]).toBe('bm25;k1=2;b=0.4;an=english');
    await screenshot(page, 'explore-k1');
    expect(errors).toEqual([]);
  });

  test('typed text ranks in every column and says it has no judgments', async () => {
    const { page, errors } = session;
    await page.getByRole('button', { name: 'New query' }).click();
    await page.getByLabel('Query text').fill('why did my loaf go stale');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('why did my loaf go stale');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('qid')).toBeNull();
    expect(await page.locator('article.column .no-metrics').allTextContents()).toEqual(Array(3).fill('No judgments for typed queries.'));
    expect(await column(page, 0).locator('button.hit').count()).toBeGreaterThan(0);
    expect(await column(page, 0).locator('button.hit mark').count()).toBeGreaterThan(0);
    // The dense column embedded the text with the model's table, loaded with a job of its own.
    expect(await recordedJobs(page)).toContain('Loading model glove-100d-sif (q8)');
    expect(errors).toEqual([]);
  });

  test('an imported TREC run becomes a column, ranked and measured like the others', async () => {
    const { page, errors } = session;
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    await page.getByLabel('Search the queries by id or text').fill('q03');
    await page.keyboard.press('Enter');
    // A run that ranks q03's judged documents in reverse grade order, then two others.
    const judged = [...qrels.get('q03')!].sort((a, b) => a[1] - b[1]).map(([docId]) => docId);
    const ranking = [...judged, 'bike-01', 'astro-01'];
    const trec = ranking.map((docId, i) => `q03 Q0 ${docId} ${i + 1} ${(10 - i).toFixed(1)} mine`).join('\n') + '\n';
    await page.locator('input[type=file]').setInputFiles({ name: 'reverse.run', mimeType: 'text/plain', buffer: Buffer.from(trec) });
    await expect.poll(() => page.locator('article.column h2').allTextContents()).toContain('Run: reverse');
    await settled(page, 4);
    const hits = ranking.map((docId, i) => ({ docId, score: 10 - i }));
    expect(await shownMetrics(page, 3)).toEqual(expectedMetrics('q03', hits));
    expect(await column(page, 3).locator('.docid').allTextContents()).toEqual(ranking);
    await column(page, 3).getByRole('button', { name: 'Remove Run: reverse' }).click();
    await settled(page, 3);
    expect(errors).toEqual([]);
  });

  test('many columns in a narrow window scroll sideways; columns move with the buttons', async () => {
    const { page, errors } = session;
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.getByRole('button', { name: '+ RRF' }).click();
    await page.getByRole('button', { name: '+ Convex' }).click();
    await settled(page, 5);
    const scroll = await page.locator('.columns').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroll.scroll).toBeGreaterThan(scroll.client);
    const page1 = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(page1).toBe(true); // only the column strip scrolls, not the page
    await screenshot(page, 'explore-narrow-many-columns');
    await column(page, 4).getByRole('button', { name: /Move Convex .* left/ }).click();
    expect(await page.locator('article.column h2').allTextContents()).toEqual([
      'BM25 (k1 2, b 0.4)',
      'Dense: glove-100d-sif',
      'LEDR (K 1000)',
      'Convex (α 0.5, min-max)',
      'RRF (k 60)',
    ]);
    await column(page, 3).getByRole('button', { name: /Remove Convex/ }).click();
    await column(page, 3).getByRole('button', { name: /Remove RRF/ }).click();
    await page.setViewportSize({ width: 1440, height: 900 });
    await settled(page, 3);
    expect(errors).toEqual([]);
  });

  test('a reload shows the same columns and query from the URL, with no index built again', async () => {
    const { page, errors } = session;
    await expect.poll(() => new URL(page.url()).searchParams.getAll('col').length).toBe(3);
    const before = page.url();
    expect(new URL(before).searchParams.get('qid')).toBe('q03');
    // The page saves the rankings on screen when idle (src/app/engine/saved-rankings.ts): one per column and
    // settings (the columns on screen, and the earlier tests' columns that ranked q03).
    const savedOfQ03 = async () => (await rows<{ key: string }>(page, 'savedRankings')).filter((row) => row.key.includes('\u0000q03\u0000')).length;
    await expect.poll(savedOfQ03, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    const started = Date.now();
    await page.reload();
    await settled(page);
    const ready = Date.now() - started;
    expect(page.url()).toBe(before);
    expect(await page.locator('article.column h2').allTextContents()).toEqual(['BM25 (k1 2, b 0.4)', 'Dense: glove-100d-sif', 'LEDR (K 1000)']);
    expect(await page.getByLabel('Query text').inputValue()).toBe(starter.queries.get('q03')!.text);
    // Shown as saved, with the numbers of the references.
    expect((await page.locator('article.column .status').allTextContents()).map((status) => status.includes('saved ranking'))).toEqual([true, true, true]);
    expect(await shownMetrics(page, 0)).toEqual(expectedMetrics('q03', bm25Hits('q03', 2, 0.4)));
    expect(await shownMetrics(page, 1)).toEqual(expectedMetrics('q03', denseRun.get('q03')!));
    expect(await shownMetrics(page, 2)).toEqual(expectedMetrics('q03', ledrRun.get('q03')!));
    console.log(`[explore] reload: ${ready} ms to three ranked columns`);
    await screenshot(page, 'explore-reload');
    // A visit with nothing left importing starts no import worker: not for the page, nor for the rollback
    // that a visit with stored collections checks for 3 s after its start (collection/collections.svelte.ts, which marks
    // IMPORTS_CHECKED_MARK on the page's performance timeline once its check is done).
    await waitInPage(page, () => performance.getEntriesByName('rp:unfinished-imports-checked').length > 0, undefined, { timeout: 60_000 });
    expect(page.workers().map((worker) => worker.url()).filter((url) => url.includes('/import.worker'))).toEqual([]);
    // The next query is ranked by the workers, which opened meanwhile.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('j');
    await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe('q04');
    await settled(page);
    expect((await page.locator('article.column .status').allTextContents()).some((status) => status.includes('saved ranking'))).toBe(false);
    expect(await shownMetrics(page, 0)).toEqual(expectedMetrics('q04', bm25Hits('q04', 2, 0.4)));
    // The workers have opened the stored index and vectors and ranked with them: since the reload, no job
    // built or embedded anything (the tray's every job is recorded, even one that came and went).
    const jobs = await recordedJobs(page);
    expect(jobs.filter((t) => /^(Building|Embedding)/.test(t))).toEqual([]);
    console.log(`[explore] reload and next query: jobs shown: ${JSON.stringify(jobs)}`);
    expect(errors).toEqual([]);
  });
});

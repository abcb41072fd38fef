/**
 * Re-rank, RM3 and Bo1 columns and WordPiece BM25 in Debian's chromium, on the built app and the starter
 * collection, with the real workers: BM25 and pseudo-relevance feedback in the BM25 worker, the project's
 * tiny cross-encoder (`local/tiny-cross-encoder`, built by `npm run models`) in its own worker on WASM.
 * One profile, tests in order: a Re-rank column over BM25 → RM3 and Bo1 columns → WordPiece BM25 → reload
 * keeps every column → Evaluate (the re-ranking's latency against LEDR's).
 *
 * Expected figures are the CLI's, computed here with its own code (src/cli/retrievers.ts `retrieve`, which
 * `npm run cli -- eval` runs: src/lib/prf on the TypeScript BM25, src/lib/rerank on onnxruntime-node) on the
 * same collection, and measured with src/lib/eval (equal to trec_eval 9.0.8).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { loadDataset } from '../../src/cli/dataset.ts';
import { MODELS_DIR } from '../../src/cli/dense.ts';
import { retrieve, type RetrieverName, type RetrieverSettings } from '../../src/cli/retrievers.ts';
import { movementLabel } from '../../src/app/explore/movement.ts';
import { rerankMovement } from '../../src/app/explore/rerank-view.ts';
import { englishAnalyzer } from '../../src/lib/analysis/english-analyzer.ts';
import { indexCorpus } from '../../src/lib/bm25/bm25-corpus.ts';
import type { Bm25Index } from '../../src/lib/bm25/bm25-index.ts';
import { bagOfTerms } from '../../src/lib/bm25/bm25-query.ts';
import type { BeirCollection } from '../../src/lib/data/beir.ts';
import { judgedQueries } from '../../src/lib/data/beir.ts';
import { evaluate } from '../../src/lib/eval/evaluate.ts';
import { evaluateRunReport, REPORT_MEASURES } from '../../src/lib/eval/run-report.ts';
import { searchBo1 } from '../../src/lib/prf/bo1.ts';
import { bm25FeedbackIndex } from '../../src/lib/prf/feedback-index.ts';
import type { PrfResult } from '../../src/lib/prf/prf-result.ts';
import { searchRm3 } from '../../src/lib/prf/rm3.ts';
import { firstStageCeiling } from '../../src/lib/rerank/rerank.ts';
import { TEST_RERANKER } from '../../src/lib/rerank/registry.ts';
import type { Hit, Qrels, Query, Run } from '../../src/lib/types.ts';
import { skipWithout } from '../requirements.ts';
import { repoRoot } from '../shared-dir.ts';
import { metricsFresh, settled } from './app-page.ts';
import { ARTIFACTS_DIR, launch, type BrowserSession } from './harness.ts';

const GLOVE = 'local/glove-100d-sif';
const built = [GLOVE, TEST_RERANKER].every((model) => existsSync(join(MODELS_DIR, model, 'config.json')));
const skipNoModel = skipWithout('models', built, `${GLOVE} or ${TEST_RERANKER} is not built in ${MODELS_DIR} (npm run models)`);
// A query BM25 finds 29 documents for, which the cross-encoder re-orders a good deal.
const QID = 'q05';

let session: BrowserSession;
let appUrl: string;
let starter: BeirCollection;
let qrels: Qrels;
let queries: Query[];
let index: Bm25Index;
const analyzer = englishAnalyzer();
/** The CLI's runs on the starter's judged queries, by name. */
const cli = new Map<string, Run>();
let rerankFirstStage: Run;

function cliSettings(retriever: RetrieverName, extra: Partial<RetrieverSettings> = {}): RetrieverSettings {
  return {
    retriever,
    analyzer: 'english',
    bm25: { k1: 0.9, b: 0.4 },
    topK: 1000,
    ignoreIdenticalIds: true,
    model: GLOVE,
    dtype: undefined,
    search: 'exact',
    ledrK: 1000,
    rrfK: 60,
    alpha: 0.5,
    normalization: 'min-max',
    ...extra,
  };
}

/** trec_eval's four Explore measures of one ranking (ndcg_cut.10, recall.100, recip_rank -M 10, map). */
function expectedMetrics(qid: string, hits: readonly Hit[]): string[] {
  const one = new Map([[qid, qrels.get(qid)!]]);
  const run = new Map([[qid, [...hits]]]);
  const main = evaluate(one, run, { measures: ['ndcg_cut.10', 'recall.100', 'map'], complete: true }).all;
  const mrr = evaluate(one, run, { measures: ['recip_rank'], complete: true, maxDocs: 10 }).all;
  return [main['ndcg_cut_10']!, main['recall_100']!, mrr['recip_rank']!, main['map']!].map((v) => v.toFixed(4));
}

/** RM3 / Bo1 of one query on the reference index, as `npm run -s cli -- search --retriever rm3|bo1` prints it. */
function prfOf(method: 'rm3' | 'bo1', qid: string): PrfResult {
  const feedback = bm25FeedbackIndex(index, { params: { k1: 0.9, b: 0.4 }, ignoreIdenticalIds: true, queryId: qid });
  const bag = bagOfTerms(analyzer.analyze(starter.queries.get(qid)!.text));
  return method === 'rm3' ? searchRm3(feedback, bag, { k: 1000 }) : searchBo1(feedback, bag, { k: 1000 });
}

const column = (page: Page, n: number): Locator => page.locator('article.column').nth(n);
const shownMetrics = (page: Page, n: number) => column(page, n).locator('dl.metrics .value').allTextContents();
/** A picture of one column, header included (an element screenshot scrolls it under the app's sticky bar). */
async function columnShot(page: Page, n: number, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await column(page, n).boundingBox())!;
  await page.screenshot({ path: join(ARTIFACTS_DIR, name), fullPage: true, clip: { x: box.x - 4, y: box.y - 4, width: box.width + 8, height: Math.min(box.height + 8, 1600) } });
}

beforeAll(async () => {
  appUrl = inject('appUrl');
  starter = await loadDataset(join(repoRoot, 'src/lib/starter/data'), { splits: ['test'] });
  qrels = starter.qrels.get('test')!;
  queries = judgedQueries(starter.queries, qrels);
  index = indexCorpus(starter.docs, analyzer);
  if (!skipNoModel) {
    const run = async (name: string, settings: RetrieverSettings) => {
      const result = await retrieve(starter.docs, queries, settings, () => {});
      cli.set(name, result.run);
      return result;
    };
    await run('bm25', cliSettings('bm25'));
    await run('rm3', cliSettings('rm3'));
    await run('bo1', cliSettings('bo1'));
    await run('rm3 w 0.8', cliSettings('rm3', { prf: { originalQueryWeight: 0.8 } }));
    await run('wordpiece', cliSettings('bm25', { analyzer: 'wordpiece' }));
    const reranked = await run('rerank', cliSettings('rerank', { model: TEST_RERANKER, firstStage: 'bm25', depth: 100 }));
    rerankFirstStage = reranked.firstStage!;
  }
  session = await launch();
  // Every text the Re-rank column's progress line showed (it is on screen for a fraction of a second here).
  await session.page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __rpRerankProgress: string[] }).__rpRerankProgress = seen;
    new MutationObserver(() => {
      for (const line of document.querySelectorAll('[data-testid="rerank-progress"] span')) {
        const text = line.textContent ?? '';
        if (!seen.includes(text)) seen.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}, 300_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(skipNoModel)('Re-rank, RM3 and Bo1 columns (starter collection)', () => {
  test('a Re-rank column over BM25 with the tiny cross-encoder: order = scores, first-stage ranks and movements, the ceiling', async () => {
    const { page, errors } = session;
    await page.goto(`${appUrl}/?view=explore&collection=starter&split=test&qid=${QID}&col=bm25;k1=0.9;b=0.4;an=english`);
    await settled(page, 1);
    await page.getByRole('button', { name: '+ Re-rank' }).click();
    const rerank = column(page, 1);
    await rerank.getByRole('button', { name: /^Settings of Re-rank/ }).click();
    // The first stage defaults to BM25 with the first column's settings; the model is picked from the registry.
    expect(await rerank.getByLabel('first stage').inputValue()).toMatch(/^col:/);
    await rerank.getByLabel('model', { exact: true }).selectOption(TEST_RERANKER);
    await expect.poll(() => rerank.locator('h2').textContent()).toBe('Re-rank 100: tiny-cross-encoder over BM25 (k1 0.9, b 0.4)');
    await settled(page, 2);
    // While it scored, the column counted the pairs (BM25 finds 29 documents for the query, all scored).
    const bm25Count = cli.get('bm25')!.get(QID)!.length;
    const progress = await page.evaluate(() => (window as unknown as { __rpRerankProgress: string[] }).__rpRerankProgress);
    expect(progress).toContain(`Scoring ${bm25Count} / ${bm25Count} pairs`);
    expect(progress.every((text) => /^Scoring \d+ \/ \d+ pairs/.test(text))).toBe(true);

    const expected = cli.get('rerank')!.get(QID)!;
    const shownIds = await rerank.locator('.docid').allTextContents();
    const shownScores = await rerank.locator('.score').allTextContents();
    expect(shownIds).toEqual(expected.slice(0, 10).map((h) => h.docId));
    expect(shownScores).toEqual(expected.slice(0, 10).map((h) => h.score.toFixed(4)));
    // The order is the cross-encoder's: scores never go up down the column.
    const numbers = shownScores.map(Number);
    for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBeLessThanOrEqual(numbers[i - 1]!);
    // Each hit's first-stage (BM25) rank and its movement from there.
    const bm25Ranks = new Map(rerankFirstStage.get(QID)!.map((h, i) => [h.docId, i + 1]));
    const firstRanks = await rerank.locator('.first-stage').allTextContents();
    const moves = await rerank.locator('.move').allTextContents();
    expect(firstRanks).toEqual(shownIds.map((id) => `1st #${bm25Ranks.get(id)}`));
    expect(moves).toEqual(shownIds.map((id, i) => movementLabel(rerankMovement({ firstStageRank: bm25Ranks.get(id)!, newRank: i + 1 }))));
    // The cross-encoder does move hits (it is not BM25 again).
    expect(moves.some((m) => m.startsWith('↑'))).toBe(true);
    console.log(`[rerank-prf] ${QID} re-ranked top 10 (first-stage rank → movement): ${shownIds.map((id, i) => `${id} ${firstRanks[i]} ${moves[i]}`).join(', ')}`);
    expect(await shownMetrics(page, 1)).toEqual(expectedMetrics(QID, expected));
    // The ceiling: BM25's recall@100 for this query, with the reason.
    const ceiling = firstStageCeiling(new Map([[QID, qrels.get(QID)!]]), rerankFirstStage, 100).mean;
    const ceilingText = (await rerank.getByTestId('rerank-ceiling').textContent())!.replace(/\s+/g, ' ');
    expect(ceilingText).toContain(`first stage recall@100 = ${ceiling.toFixed(3)}`);
    expect(ceilingText).toContain('re-ranking cannot find what stage one missed');
    // The first stage is one field of the column, a column value of its own (decoded once more by URLSearchParams).
    await expect.poll(() => page.url()).toContain('&col=rerank;d=100;m=local/tiny-cross-encoder;dt=fp32;fs=bm25%3Bk1%3D0.9%3Bb%3D0.4%3Ban%3Denglish');
    await rerank.getByRole('button', { name: /^Settings of Re-rank/ }).click();
    await columnShot(page, 1, 'rerank-column.png');
    // The hit detail: the cross-encoder's score and where the first stage had the document, then BM25's terms.
    await rerank.locator('button.hit').first().click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.bm25 tbody tr').first().waitFor();
    expect(await dialog.locator('.formula.big').textContent()).toBe(`score = cross-encoder(query, title + text) = ${expected[0]!.score.toFixed(4)}`);
    expect((await dialog.locator('p.small').first().textContent())!.replace(/\s+/g, ' ')).toContain(`Rank ${bm25Ranks.get(shownIds[0]!)} in the first stage`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'rerank-detail.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('RM3 and Bo1 columns show the expanded weighted query and rank as the CLI does', async () => {
    const { page, errors } = session;
    await page.getByRole('button', { name: '+ RM3' }).click();
    await page.getByRole('button', { name: '+ Bo1' }).click();
    await settled(page, 4);
    for (const [n, method] of [[2, 'rm3'], [3, 'bo1']] as const) {
      const card = column(page, n);
      const prf = prfOf(method, QID);
      const terms = await card.getByTestId('expanded-query').locator('li .term').allTextContents();
      const weights = await card.getByTestId('expanded-query').locator('li .weight').allTextContents();
      expect(terms).toEqual(prf.expanded.map((t) => t.term));
      expect(weights).toEqual(prf.expanded.map((t) => t.weight.toFixed(4)));
      // More terms than the query had: the feedback added some.
      expect(terms.length).toBeGreaterThan(new Set(analyzer.analyze(starter.queries.get(QID)!.text)).size);
      expect(await card.locator('.docid').allTextContents()).toEqual(cli.get(method)!.get(QID)!.slice(0, 10).map((h) => h.docId));
      expect(prf.hits.slice(0, 10)).toEqual(cli.get(method)!.get(QID)!.slice(0, 10));
      expect(await shownMetrics(page, n)).toEqual(expectedMetrics(QID, cli.get(method)!.get(QID)!));
    }
    expect(await column(page, 2).locator('h2').textContent()).toBe('RM3 (10 terms, 10 docs, w 0.5)');
    expect(await column(page, 3).locator('h2').textContent()).toBe('Bo1 (10 terms, 3 docs)');
    // Parameters are editable and go into the address.
    await column(page, 2).getByRole('button', { name: /^Settings of RM3/ }).click();
    await column(page, 2).getByLabel('orig. weight', { exact: true }).fill('0.8');
    await expect.poll(() => new URL(page.url()).searchParams.getAll('col')[2]).toBe('rm3;ft=10;fd=10;w=0.8;k1=0.9;b=0.4;an=english');
    await settled(page, 4);
    const w08 = searchRm3(bm25FeedbackIndex(index, { params: { k1: 0.9, b: 0.4 }, queryId: QID }), bagOfTerms(analyzer.analyze(starter.queries.get(QID)!.text)), { originalQueryWeight: 0.8 });
    expect(await column(page, 2).getByTestId('expanded-query').locator('li .weight').allTextContents()).toEqual(w08.expanded.map((t) => t.weight.toFixed(4)));
    await column(page, 2).getByRole('button', { name: /^Settings of RM3/ }).click();
    await columnShot(page, 2, 'prf-column.png');
    expect(errors).toEqual([]);
  });

  test('a BM25 column on the WordPiece analyzer ("BM25 (Ours)") ranks as the CLI with --analyzer wordpiece', async () => {
    const { page, errors } = session;
    const bm25 = column(page, 0);
    await bm25.getByRole('button', { name: /^Settings of BM25/ }).click();
    await bm25.getByLabel('analyzer', { exact: true }).selectOption('wordpiece');
    await expect.poll(() => bm25.locator('h2').textContent()).toBe('BM25 (k1 0.9, b 0.4, wordpiece)');
    // The address is written up to WRITE_DELAY_MS after the change, and the column may still show the
    // previous ranking as "ready" for a moment: poll both.
    await expect.poll(() => new URL(page.url()).searchParams.getAll('col')[0]).toBe('bm25;k1=0.9;b=0.4;an=wordpiece');
    const expected = cli.get('wordpiece')!.get(QID)!;
    await expect.poll(() => bm25.locator('.docid').allTextContents(), { timeout: 60_000 }).toEqual(expected.slice(0, 10).map((h) => h.docId));
    await settled(page, 4);
    expect(await bm25.locator('.sub').textContent()).toContain('wordpiece analyzer');
    expect(await shownMetrics(page, 0)).toEqual(expectedMetrics(QID, expected));
    await bm25.getByRole('button', { name: /^Settings of BM25/ }).click();
    expect(errors).toEqual([]);
  });

  test('a reload keeps every column with its settings', async () => {
    const { page, errors } = session;
    const headings = await page.locator('article.column h2').allTextContents();
    const cols = new URL(page.url()).searchParams.getAll('col');
    await page.reload();
    await settled(page, 4);
    expect(await page.locator('article.column h2').allTextContents()).toEqual(headings);
    expect(new URL(page.url()).searchParams.getAll('col')).toEqual(cols);
    expect(await column(page, 1).locator('.docid').allTextContents()).toEqual(cli.get('rerank')!.get(QID)!.slice(0, 10).map((h) => h.docId));
    expect(await column(page, 3).getByTestId('expanded-query').locator('li .term').allTextContents()).toEqual(prfOf('bo1', QID).expanded.map((t) => t.term));
    expect(errors).toEqual([]);
  });

  test('Evaluate: every column equals the CLI over the judged queries, and the re-ranking latency is set against LEDR’s', async () => {
    const { page, errors } = session;
    await page.getByRole('button', { name: '+ LEDR' }).click();
    await settled(page, 5);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Evaluate' }).click();
    await page.getByRole('button', { name: 'Run evaluation (5 columns)' }).click();
    await metricsFresh(page, 5, { timeout: 300_000 });
    const row = (position: number) => page.locator(`[data-testid="metrics-table"] tr[data-column="${position}"] td.value .figure`).allTextContents();
    const shown4 = (run: Run) => {
      const report = evaluateRunReport(qrels, run);
      return REPORT_MEASURES.map((m) => report.aggregate[m.key].toFixed(4));
    };
    expect(await row(1)).toEqual(shown4(cli.get('wordpiece')!));
    expect(await row(2)).toEqual(shown4(cli.get('rerank')!));
    expect(await row(3)).toEqual(shown4(cli.get('rm3 w 0.8')!));
    expect(await row(4)).toEqual(shown4(cli.get('bo1')!));
    const ratio = (await page.locator('[data-testid="efficiency-table"] tr[data-column="2"] [data-cell="rerank-ledr-ratio"]').textContent())!;
    expect(ratio).toMatch(/^×[\d.,]+ LEDR's /);
    console.log(`[rerank-prf] efficiency table:\n${await page.getByTestId('efficiency-table').innerText()}`);
    expect(errors).toEqual([]);
  });
});

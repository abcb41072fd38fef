/**
 * Weighted BM25 queries in the Explore view, in Debian's chromium on the built app and the starter
 * collection, with the real BM25 worker (WebAssembly): a BM25 column's "query terms" panel (change a weight
 * by typing and by arrow keys, drop a term, add expansion terms) re-ranks the column and its nDCG live, the
 * edit is kept in the address and survives a reload, the hit detail lists each query term with its weight
 * and contribution, and the query box's `term^w` / `+term^w` syntax ranks the weighted bag.
 *
 * Expected rankings and metrics come from Node: the TypeScript BM25 reference (equal to Lucene 8.7 and to
 * the WASM kernel bit for bit, tests/lib/bm25) on the same starter files, metrics from src/lib/eval.
 * Two BM25 columns: the first keeps the query as typed (the baseline), the second is edited.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { loadDataset } from '../../src/cli/dataset.ts';
import { englishAnalyzer } from '../../src/lib/analysis/english-analyzer.ts';
import { indexCorpus } from '../../src/lib/bm25/bm25-corpus.ts';
import { explainBm25 } from '../../src/lib/bm25/bm25-explain.ts';
import type { Bm25Index } from '../../src/lib/bm25/bm25-index.ts';
import { bagOfTerms, type QueryTermWeight } from '../../src/lib/bm25/bm25-query.ts';
import { searchBm25 } from '../../src/lib/bm25/bm25-search.ts';
import { formatWeightedQuery, parseWeightedQuery } from '../../src/lib/bm25/query-syntax.ts';
import type { BeirCollection } from '../../src/lib/data/beir.ts';
import { evaluate } from '../../src/lib/eval/evaluate.ts';
import type { Hit, Qrels } from '../../src/lib/types.ts';
import { decodeTermEdit } from '../../src/app/url-state.ts';
import { repoRoot } from '../shared-dir.ts';
import { settled } from './app-page.ts';
import { launch, screenshot, type BrowserSession } from './harness.ts';

const BM25_COL = 'bm25;k1=0.9;b=0.4;an=english';
const QID = 'q03';

let session: BrowserSession;
let appUrl: string;
let starter: BeirCollection;
let qrels: Qrels;
let index: Bm25Index;
const analyzer = englishAnalyzer();

function reference(weighted: readonly QueryTermWeight[]): Hit[] {
  return searchBm25(index, { id: QID, weighted }, { k: 1000, params: { k1: 0.9, b: 0.4 } });
}

/** trec_eval's four Explore measures of one ranking (ndcg_cut.10, recall.100, recip_rank -M 10, map). */
function expectedMetrics(hits: Hit[]): string[] {
  const one = new Map([[QID, qrels.get(QID)!]]);
  const run = new Map([[QID, hits]]);
  const main = evaluate(one, run, { measures: ['ndcg_cut.10', 'recall.100', 'map'], complete: true }).all;
  const mrr = evaluate(one, run, { measures: ['recip_rank'], complete: true, maxDocs: 10 }).all;
  return [main['ndcg_cut_10']!, main['recall_100']!, mrr['recip_rank']!, main['map']!].map((v) => v.toFixed(4));
}

const column = (page: Page, n: number): Locator => page.locator('article.column').nth(n);
const panel = (page: Page): Locator => column(page, 1).locator('section.terms');

/** Top-10 doc ids and scores as the column shows them. */
async function shown(page: Page, n: number): Promise<string[]> {
  const ids = await column(page, n).locator('.hit .docid').allTextContents();
  const scores = await column(page, n).locator('.hit .score').allTextContents();
  return ids.map((id, i) => `${id} ${scores[i]}`);
}
const expectedShown = (hits: Hit[]) => hits.slice(0, 10).map((h) => `${h.docId} ${h.score.toFixed(4)}`);

/** Waits until column `n` shows `hits` and their metrics (edits do not change the box text `settled` waits on). */
async function showsRanking(page: Page, n: number, hits: Hit[]): Promise<void> {
  await expect.poll(() => shown(page, n), { timeout: 60_000 }).toEqual(expectedShown(hits));
  await expect.poll(() => column(page, n).getAttribute('data-status')).toBe('ready');
  await expect.poll(() => column(page, n).locator('dl.metrics .value').allTextContents()).toEqual(expectedMetrics(hits));
}

/** The second column's edited terms as the address holds them (undefined: none). */
function urlEdit(page: Page): string | undefined {
  // Raw `col=` values: the field value inside is percent-encoded on its own (decodeTermEdit undoes it).
  const raw = new URL(page.url()).search.slice(1).split('&').filter((part) => part.startsWith('col='))[1];
  return raw === undefined ? undefined : decodeTermEdit(raw.slice(4));
}

async function panelTerms(page: Page): Promise<string[]> {
  const terms = await panel(page).locator('tbody th code').allTextContents();
  const weights = await panel(page).locator('input.weight').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  return terms.map((t, i) => `${t} ${weights[i]}`);
}

beforeAll(async () => {
  appUrl = inject('appUrl');
  starter = await loadDataset(join(repoRoot, 'src/lib/starter/data'), { splits: ['test'] });
  qrels = starter.qrels.get('test')!;
  index = indexCorpus(starter.docs, analyzer);
  session = await launch();
}, 300_000);

afterAll(async () => {
  await session?.close();
});

describe('Query terms panel and weighted query syntax (starter collection, two BM25 columns)', () => {
  let bag: QueryTermWeight[];

  test('edit a weight (typed and by arrow keys), drop a term, add terms: the column re-ranks, nDCG moves, the address keeps it', async () => {
    const { page, errors } = session;
    await page.goto(`${appUrl}/?view=explore&collection=starter&qid=${QID}&col=${BM25_COL}&col=${BM25_COL}`);
    await settled(page, 2);
    const typed = bagOfTerms(analyzer.analyze(starter.queries.get(QID)!.text));
    const plain = reference(typed);
    await showsRanking(page, 0, plain);
    await showsRanking(page, 1, plain);

    await column(page, 1).getByRole('button', { name: /^Query terms of/ }).click();
    await panel(page).waitFor();
    expect(await panelTerms(page)).toEqual(typed.map((t) => `${t.term} 1`));
    expect(await panel(page).locator('.canonical').textContent()).toContain('as typed');

    // 1. A weight typed into its field: "lid" × 3 lifts the relevant document, nDCG@10 rises.
    bag = typed.map((t) => (t.term === 'lid' ? { ...t, weight: 3 } : t));
    await panel(page).getByLabel('Weight of lid').fill('3');
    const lid = reference(bag);
    expect(expectedMetrics(lid)[0]).not.toBe(expectedMetrics(plain)[0]);
    await showsRanking(page, 1, lid);
    await showsRanking(page, 0, plain);
    await expect.poll(() => urlEdit(page)).toBe(formatWeightedQuery(bag));
    expect(await column(page, 1).locator('.sub').textContent()).toContain('edited query terms');

    // 2. Arrow keys: two steps down on "stuck" (1 → 0.8).
    await panel(page).getByLabel('Weight of stuck').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    bag = bag.map((t) => (t.term === 'stuck' ? { ...t, weight: Math.fround(0.8) } : t));
    await expect.poll(() => panel(page).getByLabel('Weight of stuck').inputValue()).toBe('0.8');
    const stepped = reference(bag);
    expect(expectedShown(stepped)).not.toEqual(expectedShown(lid));
    await showsRanking(page, 1, stepped);

    // 3. Drop "after" (keyboard: focus the button, Enter).
    await panel(page).getByRole('button', { name: 'Drop after' }).focus();
    await page.keyboard.press('Enter');
    bag = bag.filter((t) => t.term !== 'after');
    const dropped = reference(bag);
    expect(expectedShown(dropped)).not.toEqual(expectedShown(stepped));
    await showsRanking(page, 1, dropped);
    expect(await panelTerms(page)).not.toContain('after 1');

    // 4. Add expansion terms, analyzed like query words ("Sealing rings" → seal, ring).
    await panel(page).getByLabel(/^Add a term to/).fill('Sealing rings');
    await page.keyboard.press('Enter');
    const added = analyzer.analyze('Sealing rings');
    expect(added.length).toBeGreaterThan(0);
    bag = [...bag, ...added.filter((term) => !bag.some((t) => t.term === term)).map((term) => ({ term, weight: 1 }))];
    const expanded = reference(bag);
    expect(expectedShown(expanded)).not.toEqual(expectedShown(dropped));
    await showsRanking(page, 1, expanded);
    await expect.poll(() => panel(page).locator('.message').textContent()).toContain('Added');
    expect(await panelTerms(page)).toEqual(bag.map((t) => `${t.term} ${Number(t.weight.toPrecision(6))}`));
    await expect.poll(() => urlEdit(page)).toBe(formatWeightedQuery(bag));
    expect(await panel(page).locator('.canonical code').textContent()).toBe(formatWeightedQuery(bag));

    // A weight that is not one is refused where it was typed; the ranking stays.
    await panel(page).getByLabel('Weight of lid').fill('-2');
    await expect.poll(() => panel(page).getByLabel('Weight of lid').getAttribute('aria-invalid')).toBe('true');
    expect(urlEdit(page)).toBe(formatWeightedQuery(bag));
    await panel(page).getByLabel('Weight of lid').fill('3');
    await expect.poll(() => panel(page).getByLabel('Weight of lid').getAttribute('aria-invalid')).not.toBe('true');

    await screenshot(page, 'query-terms-panel');
    expect(errors).toEqual([]);
  });

  test('a reload keeps the edited terms; the hit detail lists each term with its weight and contribution', async () => {
    const { page, errors } = session;
    await page.reload();
    await settled(page, 2);
    const expanded = reference(bag);
    await showsRanking(page, 1, expanded);
    await showsRanking(page, 0, reference(bagOfTerms(analyzer.analyze(starter.queries.get(QID)!.text))));
    expect(await column(page, 1).locator('.sub').textContent()).toContain('edited query terms');
    await column(page, 1).getByRole('button', { name: /^Query terms of/ }).click();
    expect(await panelTerms(page)).toEqual(bag.map((t) => `${t.term} ${Number(t.weight.toPrecision(6))}`));

    const first = column(page, 1).locator('button.hit').first();
    const docId = (await first.locator('.docid').textContent())!;
    expect(docId).toBe(expanded[0]!.docId);
    await first.click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.bm25 tbody tr').first().waitFor();
    const explanation = explainBm25(index, { weighted: bag }, docId);
    expect(await dialog.locator('.bm25 .parsed').textContent()).toContain('query terms panel');
    expect(await dialog.locator('.bm25 .parsed code').textContent()).toBe(formatWeightedQuery(bag));
    expect(await dialog.locator('.bm25 tbody th').allTextContents()).toEqual(explanation.terms.map((t) => t.term));
    const cells = await dialog.locator('.bm25 tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent!.trim())));
    expect(cells.map((row) => Number(row[0]))).toEqual(explanation.terms.map((t) => Number(t.boost.toPrecision(6))));
    expect(cells.map((row) => row.at(-1))).toEqual(explanation.terms.map((t) => t.contribution.toFixed(4)));
    expect(await dialog.locator('.bm25 tfoot td').textContent()).toBe(expanded[0]!.score.toFixed(4));
    await screenshot(page, 'query-terms-detail');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    // Reset goes back to the query as typed, and the address forgets the edit.
    await panel(page).getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => urlEdit(page)).toBeUndefined();
    await showsRanking(page, 1, reference(bagOfTerms(analyzer.analyze(starter.queries.get(QID)!.text))));
    expect(errors).toEqual([]);
  });

  test('the query box takes term^w and +term^w: BM25 ranks the weighted bag, syntax problems are shown', async () => {
    const { page, errors } = session;
    const text = 'Brimwell K-90 lid^2.5 stuck shut +seal^0.5';
    await page.getByLabel('Query text').fill(text);
    const parsed = parseWeightedQuery(text, analyzer);
    expect(parsed.errors).toEqual([]);
    const weighted = reference(parsed.terms);
    // The stored query's judgments still grade its edited text.
    await showsRanking(page, 0, weighted);
    await showsRanking(page, 1, weighted);
    // With every weight 1 the syntax ranks exactly as the plain words.
    await page.getByLabel('Query text').fill('Brimwell^1 K-90 lid^1 stuck shut');
    await showsRanking(page, 0, reference(bagOfTerms(analyzer.analyze('Brimwell K-90 lid stuck shut'))));
    // Malformed syntax is read as plain text and said so, with its place.
    await page.getByLabel('Query text').fill('lid^x stuck');
    await expect.poll(() => column(page, 0).locator('ul.syntax li').first().textContent()).toMatch(/1:1.*"\^x" is not a boost/);
    expect(errors).toEqual([]);
  });
});

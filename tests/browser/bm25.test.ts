/**
 * The BM25 worker in Debian's chromium: a test-only page (tests/browser/bm25-selftest, built here with
 * Vite — the app itself gets no test hook) starts workers/bm25.worker.ts. The worker reads SciFact from
 * IndexedDB, analyzes and indexes it in WebAssembly with progress, stores the index, and — after the
 * browser is closed and started again on the same profile — loads it back without re-indexing. Rankings
 * are compared with the TypeScript reference BM25 run in Node on the same analyzer (src/lib/bm25), which
 * itself equals Lucene 8.7 on SciFact.
 */
import { join } from 'node:path';
import { tempDir } from '../temp-dir.ts';
import { preview, type PreviewServer } from 'vite';
import { productionBuild } from './production-build.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadDataset } from '../../src/cli/dataset.ts';
import { englishAnalyzer } from '../../src/lib/analysis/english-analyzer.ts';
import { buildBm25Index, type Bm25Index } from '../../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../../src/lib/bm25/bm25-search.ts';
import { bm25DocText } from '../../src/lib/services/bm25-service.ts';
import type { BeirCollection } from '../../src/lib/data/beir.ts';
import type { Hit } from '../../src/lib/types.ts';
import { repoRoot, shared } from '../shared-dir.ts';
import { launch, screenshot, waitInPage, type BrowserSession } from './harness.ts';
import type { Bm25SelfTestApi } from './bm25-selftest/main.ts';

declare global {
  interface Window {
    rpBm25: Bm25SelfTestApi;
  }
}

const pageDir = join(repoRoot, 'tests', 'browser', 'bm25-selftest');

let outDir: string;
let server: PreviewServer;
let pageUrl: string;
let scifact: BeirCollection;
let reference: Bm25Index;
let queries: { id: string; text: string }[];

function referenceHits(k: number, params = { k1: 0.9, b: 0.4 }): Hit[][] {
  const analyzer = englishAnalyzer();
  return queries.map((query) => searchBm25(reference, { id: query.id, terms: analyzer.analyze(query.text) }, { k, params }));
}

async function openPage(session: BrowserSession): Promise<void> {
  await session.page.goto(pageUrl);
  await waitInPage(session.page, () => typeof window.rpBm25 === 'object', undefined, { timeout: 30_000 });
}

beforeAll(async () => {
  outDir = tempDir('rp-bm25-page-');
  await productionBuild({
    configFile: false,
    root: pageDir,
    logLevel: 'warn',
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  server = await preview({ configFile: false, root: pageDir, logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1' } });
  pageUrl = `${server.resolvedUrls!.local[0]!.replace(/\/$/, '')}/index.html`;

  scifact = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
  const analyzer = englishAnalyzer();
  reference = buildBm25Index(scifact.docs.map((doc) => ({ id: doc.id, terms: analyzer.analyze(bm25DocText(doc)) })));
  const judged = scifact.qrels.get('test')!;
  queries = [...scifact.queries.values()].filter((query) => judged.has(query.id)).slice(0, 40).map(({ id, text }) => ({ id, text }));
});

afterAll(async () => {
  await server?.close();
});

describe('BM25 worker in chromium', () => {
  let profileDir: string;

  test('indexes SciFact from IndexedDB in the worker with progress, and ranks like the reference', async () => {
    const session = await launch();
    profileDir = session.profileDir;
    try {
      await openPage(session);
      const { page } = session;
      const docs = scifact.docs.map(({ id, title, text }) => ({ id, title, text }));
      for (let first = 0; first < docs.length; first += 1000) {
        const chunk = docs.slice(first, first + 1000);
        await page.evaluate(([c, f, n]) => window.rpBm25.seed('beir/scifact', c, f, n), [chunk, first, docs.length] as const);
      }

      const { info, progress } = await page.evaluate(() => window.rpBm25.open('beir/scifact'));
      expect(info).toMatchObject({ source: 'built', numDocs: 5183, numTerms: reference.terms.length, numPostings: reference.postingsDocs.length });
      const indexing = progress.filter((p) => p.phase === 'indexing');
      expect(indexing.at(-1)).toMatchObject({ docsDone: 5183, docsTotal: 5183 });
      expect(indexing.length).toBeGreaterThanOrEqual(5);
      expect(indexing.every((p) => p.docsPerSecond > 0)).toBe(true);
      console.log(`chromium: built in ${info.openMs.toFixed(0)} ms (${indexing.at(-1)!.docsPerSecond.toFixed(0)} docs/s), stored ${info.storedBytes} bytes`);

      const hits = await page.evaluate((q) => window.rpBm25.search('beir/scifact', q, { k: 100 }), queries);
      expect(hits).toEqual(referenceHits(100));
      const live = await page.evaluate((q) => window.rpBm25.search('beir/scifact', q, { k: 10, k1: 1.2, b: 0.75 }), queries);
      expect(live).toEqual(referenceHits(10, { k1: 1.2, b: 0.75 }));

      const cancelled = await page.evaluate(() => window.rpBm25.openAndCancel('beir/scifact', 'standard'));
      expect(cancelled.error).toBe('AbortError');
      expect(cancelled.docsDone).toBeLessThan(5183);
      const stored = await page.evaluate(() => window.rpBm25.storedIndexes());
      expect(stored.map((row) => [row.kind, (row.settings as { analyzer: string }).analyzer])).toEqual([['bm25', 'english']]);
      // The index opened before the cancelled build still answers.
      expect(await page.evaluate((q) => window.rpBm25.search('beir/scifact', q.slice(0, 5), { k: 100 }), queries)).toEqual(referenceHits(100).slice(0, 5));
      await screenshot(page, 'bm25-worker-built');
      expect(session.errors).toEqual([]);
    } finally {
      await session.close({ keepProfile: true });
    }
  });

  test('after a browser restart, loads the stored index without re-indexing', async () => {
    const session = await launch({ profileDir });
    try {
      await openPage(session);
      const { info, progress } = await session.page.evaluate(() => window.rpBm25.open('beir/scifact'));
      expect(info.source).toBe('stored');
      expect(progress.some((p) => p.phase === 'indexing')).toBe(false);
      console.log(`chromium: loaded the stored index in ${info.openMs.toFixed(0)} ms`);
      const hits = await session.page.evaluate((q) => window.rpBm25.search('beir/scifact', q, { k: 100 }), queries);
      expect(hits).toEqual(referenceHits(100));
      await screenshot(session.page, 'bm25-worker-reloaded');
      expect(session.errors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

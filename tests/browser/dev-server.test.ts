/**
 * The README's first command, `npm start`, serves the app through Vite's dev server (styles arrive as
 * injected <style> elements). This test starts that server the way `npm start` does (after `npm run assets`,
 * which the browser test command runs first) and checks the first screen: styled, every default column
 * ranked, no console error and no Content-Security-Policy violation.
 */
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { repoRoot } from '../shared-dir.ts';
import { settled } from './app-page.ts';
import { launch, screenshot, type BrowserSession } from './harness.ts';

let server: ViteDevServer;
let session: BrowserSession;

beforeAll(async () => {
  server = await createServer({ root: repoRoot, logLevel: 'warn', server: { port: 0, host: '127.0.0.1', strictPort: false } });
  await server.listen();
  session = await launch();
});

afterAll(async () => {
  await session?.close();
  await server?.close();
});

test('npm start: the first screen is styled, every default column ranks, and the console stays clean', async () => {
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite dev did not report a local URL');
  const { page, errors } = session;
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(url);
  // The first visit compiles every module on demand: allow for it.
  await settled(page);
  // Styles applied: the page's stylesheet lays the columns out in a grid, unstyled HTML would not.
  const styleCount = await page.evaluate(() => document.querySelectorAll('style').length);
  expect(styleCount).toBeGreaterThan(0);
  const display = await page.evaluate(() => {
    const column = document.querySelector('article.column');
    return column ? getComputedStyle(column.parentElement as Element).display : '';
  });
  expect(display).toBe('grid');
  await screenshot(page, 'dev-server-first-screen');
  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
});

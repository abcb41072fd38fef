/**
 * `npx tsx scripts/readme-screenshots.ts [--png]` (after `npm run -s build`): the README's screenshots of each
 * view (Learn trains a model of the starter), taken from the production build in Debian's chromium (tests/browser/harness.ts) on the starter
 * collection, scaled to 1000 px wide by the browser itself and written to docs/screenshots/ as WebP (or PNG).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { preview } from 'vite';
import { settled } from '../tests/browser/app-page.ts';
import { metricsFresh } from '../tests/browser/app-page.ts';
import { launch } from '../tests/browser/harness.ts';
import { repoRoot } from '../tests/shared-dir.ts';

const OUT = join(repoRoot, 'docs', 'screenshots');
const WIDTH = 1000;
const TYPE = process.argv.includes('--png') ? 'png' : 'webp';

/** The page's viewport as WebP, `WIDTH` px wide (drawn on a canvas in a blank page of the same browser). */
async function shoot(page: Page, name: string): Promise<void> {
  // Finished jobs are dismissed so the tray does not cover the view.
  const dismiss = page.getByRole('region', { name: 'Background jobs' }).getByRole('button', { name: /^Dismiss / });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await page.waitForTimeout(300);
  const png = await page.screenshot({ type: 'png' });
  const scaler = await page.context().newPage();
  const dataUrl = await scaler.evaluate(
    async ({ base64, width, type }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = Math.round((image.height * width) / image.width);
      const context = canvas.getContext('2d')!;
      context.imageSmoothingQuality = 'high';
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL(`image/${type}`, 0.85);
    },
    { base64: png.toString('base64'), width: WIDTH, type: TYPE },
  );
  await scaler.close();
  writeFileSync(join(OUT, `${name}.${TYPE}`), Buffer.from(dataUrl.split(',')[1]!, 'base64'));
  console.log(`docs/screenshots/${name}.${TYPE}`);
}

const server = await preview({ root: repoRoot, logLevel: 'warn', preview: { port: 0, host: '127.0.0.1', strictPort: false } });
const url = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
const session = await launch({ asUser: true });
const { page } = session;
const views = page.getByRole('navigation', { name: 'Views' });
try {
  mkdirSync(OUT, { recursive: true });
  await page.goto(url);
  await settled(page, 3);
  await shoot(page, 'explore');

  await page.keyboard.press('g');
  await page.getByRole('button', { name: 'List' }).waitFor({ timeout: 60_000 });
  await shoot(page, 'judging');
  await page.keyboard.press('Escape');

  await views.getByRole('button', { name: 'Evaluate' }).click();
  await page.getByRole('button', { name: 'Run evaluation (3 columns)' }).click();
  await metricsFresh(page, 3);
  await page.waitForTimeout(1500);
  await shoot(page, 'evaluate');

  await views.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'In this browser' }).waitFor({ timeout: 60_000 });
  await shoot(page, 'datasets');

  await views.getByRole('button', { name: 'Learn' }).click();
  const learn = page.getByTestId('learn-view');
  await learn.getByLabel('Share held out').fill('0.25');
  await learn.getByLabel('Epochs', { exact: true }).fill('30');
  await learn.getByLabel('Model name').fill('starter-glove');
  await learn.getByRole('button', { name: 'Train' }).click();
  await page.getByTestId('learn-done').waitFor({ timeout: 240_000 });
  await shoot(page, 'learn');

  await page.goto(`${url}/diagnostics.html`);
  await page.locator('#run-selftest').click();
  await page.waitForTimeout(20_000);
  await shoot(page, 'diagnostics');
} finally {
  await session.close();
  await server.close();
}

import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { launch, screenshot, type BrowserSession } from './harness.ts';

let session: BrowserSession;

beforeAll(async () => {
  session = await launch();
});

afterAll(async () => {
  await session.close();
});

test('the built app loads in chromium without errors', async () => {
  const { page, errors } = session;
  await page.goto(inject('appUrl'));
  await expect.poll(() => page.locator('h1').textContent()).toBe('Retrieval Playground');
  await screenshot(page, 'app-loads');
  expect(errors).toEqual([]);
});

/** The synthetic collection of tests/lib/augment as BEIR files, for the browser tests that import it through the Datasets view. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { syntheticCollection } from '../lib/augment/synthetic.ts';

/** corpus.jsonl, queries.jsonl and its judgments as test.tsv (its one judged split) in `folder`; their paths. */
export function writeSynthetic(folder: string): string[] {
  const { docs, train, test } = syntheticCollection();
  const queries = [...train.queries, ...test.queries];
  const qrels = new Map([...train.qrels, ...test.qrels]);
  const files = { corpus: join(folder, 'corpus.jsonl'), queries: join(folder, 'queries.jsonl'), qrels: join(folder, 'test.tsv') };
  writeFileSync(files.corpus, docs.map((d) => JSON.stringify({ _id: d.id, title: d.title, text: d.text })).join('\n'));
  writeFileSync(files.queries, queries.map((q) => JSON.stringify({ _id: q.id, text: q.text })).join('\n'));
  const lines = [...qrels].flatMap(([qid, judged]) => [...judged].map(([docId, grade]) => `${qid}\t${docId}\t${grade}`));
  writeFileSync(files.qrels, ['query-id\tcorpus-id\tscore', ...lines].join('\n'));
  return Object.values(files);
}

/** Imports `files` through the Datasets view as the collection "Synthetic" and waits until it is the open one. */
export async function importSynthetic(page: Page, files: readonly string[]): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Datasets' }).click();
  await page.getByTestId('pick-files').setInputFiles([...files]);
  const preview = page.getByRole('region', { name: 'Recognised files' });
  await preview.waitFor();
  await preview.getByLabel('Name').fill('Synthetic');
  await preview.getByRole('button', { name: 'Import', exact: true }).click();
  await expect.poll(() => page.getByLabel('Collection', { exact: true }).locator('option:checked').textContent(), { timeout: 60_000 }).toBe('Synthetic');
}

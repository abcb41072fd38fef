import { describe, expect, test } from 'vitest';
import { CATALOG, CATALOG_FAMILIES, DEFAULT_HUB_URL, catalogEntry, entryFiles, hubFileUrl, type CatalogEntry } from '../../../src/lib/catalog/index.ts';

describe('catalog entries', () => {
  test('ids are unique and every family is described', () => {
    expect(new Set(CATALOG.map((entry) => entry.id)).size).toBe(CATALOG.length);
    for (const entry of CATALOG) expect(CATALOG_FAMILIES.map((f) => f.family)).toContain(entry.family);
  });

  test.each(CATALOG.map((entry) => [entry.id, entry] as const))('%s is well-formed', (_id, entry) => {
    expect(entry.id).toMatch(/^[a-z-]+\/[a-z0-9-]+$/);
    expect(entry.name.length).toBeGreaterThan(0);
    expect(entry.licence.length).toBeGreaterThan(0);
    expect(entry.approxBytes).toBeGreaterThan(0);
    expect(['en', 'pl']).toContain(entry.language);
    expect(entry.notes.length).toBeGreaterThan(10);
    expect(entry.splits.length).toBeGreaterThan(0);
    expect(entry.files.qrels.map((file) => file.split)).toEqual(entry.splits);
    for (const { file } of entryFiles(entry)) {
      expect(file.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(file.path).not.toMatch(/^\/|\/$/);
      expect(['jsonl', 'tsv', 'parquet']).toContain(file.format);
      if (file.path.endsWith('.parquet')) expect(file.format).toBe('parquet');
      if (/\.jsonl(\.gz)?$/.test(file.path)) expect(file.format).toBe('jsonl');
      if (file.path.endsWith('.tsv')) expect(file.format).toBe('tsv');
    }
    const known = entryFiles(entry).reduce((sum, { file }) => sum + (file.bytes ?? 0), 0);
    expect(entry.approxBytes).toBeGreaterThanOrEqual(known);
  });

  test('the families hold the datasets the issue names', () => {
    const ids = CATALOG.map((entry) => entry.id);
    for (const name of ['scifact', 'nfcorpus', 'arguana', 'scidocs', 'fiqa', 'trec-covid', 'quora']) expect(ids).toContain(`beir/${name}`);
    expect(ids.filter((id) => id.startsWith('cqadupstack/'))).toHaveLength(12);
    expect(ids.filter((id) => id.startsWith('nanobeir/'))).toHaveLength(13);
    expect(ids.filter((id) => id.startsWith('beir-pl/')).length).toBeGreaterThanOrEqual(4);
  });
});

/** The repositories an entry's files come from, in the order an import reads them. */
function reposOf(entry: CatalogEntry): string[] {
  return [...new Set(entryFiles(entry).map(({ file }) => file.repo))];
}

describe('hub URLs', () => {
  test('BEIR SciFact resolves to the hub layout (corpus and queries in BeIR/scifact, qrels in BeIR/scifact-qrels)', () => {
    const entry = catalogEntry('beir/scifact')!;
    expect(entryFiles(entry).map(({ file }) => hubFileUrl(DEFAULT_HUB_URL, file))).toEqual([
      'https://huggingface.co/datasets/BeIR/scifact/resolve/main/corpus.jsonl.gz',
      'https://huggingface.co/datasets/BeIR/scifact/resolve/main/queries.jsonl.gz',
      'https://huggingface.co/datasets/BeIR/scifact-qrels/resolve/main/test.tsv',
      'https://huggingface.co/datasets/BeIR/scifact-qrels/resolve/main/train.tsv',
    ]);
    expect(reposOf(entry)).toEqual(['BeIR/scifact', 'BeIR/scifact-qrels']);
  });

  test('NanoBEIR: three parquet files in folders; CQADupStack: subforum folder for qrels; BEIR-PL: -pl repos', () => {
    expect(hubFileUrl(DEFAULT_HUB_URL, catalogEntry('nanobeir/scifact')!.files.qrels[0]!)).toBe(
      'https://huggingface.co/datasets/zeta-alpha-ai/NanoSciFact/resolve/main/qrels/train-00000-of-00001.parquet',
    );
    expect(hubFileUrl(DEFAULT_HUB_URL, catalogEntry('cqadupstack/android')!.files.qrels[0]!)).toBe(
      'https://huggingface.co/datasets/BeIR/cqadupstack-qrels/resolve/main/android/test.tsv',
    );
    expect(reposOf(catalogEntry('beir-pl/scifact')!)).toEqual(['clarin-knext/scifact-pl', 'clarin-knext/scifact-pl-qrels']);
  });

  test('a local hub with a trailing slash, a pinned revision, and characters that need escaping', () => {
    expect(hubFileUrl('http://127.0.0.1:8080/', { repo: 'BeIR/scifact', path: 'corpus.jsonl.gz' })).toBe('http://127.0.0.1:8080/datasets/BeIR/scifact/resolve/main/corpus.jsonl.gz');
    expect(hubFileUrl('https://hub', { repo: 'o/n', path: 'a b/c#d.tsv', revision: 'refs/pr/1' })).toBe('https://hub/datasets/o/n/resolve/refs%2Fpr%2F1/a%20b/c%23d.tsv');
  });
});

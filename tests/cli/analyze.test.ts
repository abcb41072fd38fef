/**
 * The `analyze` command and `eval --analyzer polish` with the arguments a user gives (run in-process through runCli).
 * References: shared/reference/polish/wordlist-stems.tsv.gz (Lucene 8.7 PolishAnalyzer on 20,000 words) and
 * the figures of shared/reference/polish/README.md (BM25 nDCG@10 0.2973, R@100 0.3828 over 210 queries).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { shared } from '../shared-dir.ts';
import { cli } from './run-cli.ts';



describe('analyze', () => {
  it('prints each stdin line as space-separated terms, an empty line when nothing is left', async () => {
    const { stdout, code } = await cli(['analyze', '--analyzer', 'polish'], 'Wypisuje zawartość KATALOGÓW\nsię i nie\ne-mail\n');
    expect(code).toBe(0);
    expect(stdout).toBe('wypisywać zawartość katalog\n\ne mcić\n');
  });

  it('--text with --json gives one JSON array per line; english is the default analyzer', async () => {
    const { stdout } = await cli(['analyze', '--json', '--text', "The student's studies\nof it"]);
    expect(stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as string[])).toEqual([['student', 'studi'], []]);
  });

  it('--stems reproduces Lucene PolishAnalyzer on the 20,000-word list (wordlist-stems.tsv.gz)', async () => {
    const expected = gunzipSync(readFileSync(shared('reference', 'polish', 'wordlist-stems.tsv.gz'))).toString('utf8');
    const words = expected.split('\n').filter(Boolean).map((line) => line.split('\t')[0]!);
    expect(words.length).toBe(20_000);
    const { stdout, code } = await cli(['analyze', '--analyzer', 'polish', '--stems'], words.join('\n') + '\n');
    expect(code).toBe(0);
    expect(stdout).toBe(expected.endsWith('\n') ? expected : expected + '\n');
  });

  it('rejects an unknown analyzer with one line and exit code 2', async () => {
    const { stderr, code } = await cli(['analyze', '--analyzer', 'klingon', '--text', 'x']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: --analyzer klingon: expected one of english, polish/);
  });
});

describe('eval --analyzer polish on manpages-pl (shared/reference/polish)', () => {
  it('gives the README figures of Lucene BM25 with PolishAnalyzer: nDCG@10 0.2973, R@100 0.3828', async () => {
    const { stdout, code } = await cli(['eval', '--dataset', shared('reference', 'polish', 'manpages-pl'), '--analyzer', 'polish', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { queries: number; settings: { analyzer: string }; metrics: Record<string, number> };
    expect(report.queries).toBe(210);
    expect(report.settings.analyzer).toBe('polish');
    expect(report.metrics.ndcg_cut_10!.toFixed(4)).toBe('0.2973');
    expect(report.metrics.recall_100!.toFixed(4)).toBe('0.3828');
    // The English analyzer on Polish text is measurably worse: the reason the analyzer follows the language.
    const english = JSON.parse((await cli(['eval', '--dataset', shared('reference', 'polish', 'manpages-pl'), '--json'])).stdout) as typeof report;
    console.log(`manpages-pl BM25 nDCG@10: polish ${report.metrics.ndcg_cut_10!.toFixed(4)}, english ${english.metrics.ndcg_cut_10!.toFixed(4)}`);
    expect(english.metrics.ndcg_cut_10!).toBeLessThan(report.metrics.ndcg_cut_10!);
  });
});

/**
 * The analyzers the command line offers: the registry's (src/lib/analysis/analyzers.ts), which need
 * nothing but code, and `wordpiece`, which needs a BERT vocabulary file. Its vocab.txt is the one
 * `npm run models` builds into public/models/local/tiny-bert/ (all-MiniLM-L6-v2's), else the tokenizer
 * folder under SHARED_DIR, read in place; env RP_WORDPIECE_VOCAB names another file.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Analyzer } from '../lib/analysis/analyzer.ts';
import { analyzerNames, createAnalyzer, isAnalyzerName, loadableAnalyzers, prepareAnalyzer, type AnalyzerName } from '../lib/analysis/analyzers.ts';
import { WORDPIECE_ANALYZER_NAME } from '../lib/analysis/wordpiece-analyzer.ts';
import { CliError } from './cli-error.ts';
import { sharedDir } from './dataset.ts';

export type CliAnalyzerName = AnalyzerName | typeof WORDPIECE_ANALYZER_NAME;

export const cliAnalyzerNames: readonly CliAnalyzerName[] = [...analyzerNames, WORDPIECE_ANALYZER_NAME];

export function isCliAnalyzerName(name: string): name is CliAnalyzerName {
  return name === WORDPIECE_ANALYZER_NAME || isAnalyzerName(name);
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where `wordpiece` reads its vocabulary, in order of preference. */
function wordPieceVocabCandidates(): string[] {
  const fromEnv = process.env.RP_WORDPIECE_VOCAB;
  if (fromEnv !== undefined && fromEnv !== '') return [resolve(fromEnv)];
  return [
    join(repoRoot, 'public', ...loadableAnalyzers.wordpiece.file.split('/')),
    join(sharedDir(), 'tokenizers', 'all-MiniLM-L6-v2', 'vocab.txt'),
  ];
}

/** A fresh analyzer by name; `wordpiece` loads its vocabulary (a CliError names the files tried). */
export async function loadAnalyzer(name: CliAnalyzerName): Promise<Analyzer> {
  if (name !== WORDPIECE_ANALYZER_NAME) {
    await prepareAnalyzer(name);
    return createAnalyzer(name);
  }
  const candidates = wordPieceVocabCandidates();
  const path = candidates.find((candidate) => existsSync(candidate));
  if (path === undefined) {
    throw new CliError(`--analyzer wordpiece needs a BERT vocab.txt: none of ${candidates.join(', ')} exists (run npm run models, or set RP_WORDPIECE_VOCAB)`);
  }
  return loadableAnalyzers.wordpiece.create(await readFile(path, 'utf8'));
}

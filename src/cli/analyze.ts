/**
 * `analyze`: what an analyzer makes of some text, one input line at a time — to look at Polish or English
 * analysis by hand, or to feed the terms to another tool.
 *
 *   npm run -s cli -- analyze --analyzer english|polish|… [--text T] [--json] [--stems]
 *
 * Lines come from `--text` (which may hold several lines) or from stdin. Each line prints its terms
 * separated by spaces (an empty line when nothing is left), or with `--json` one JSON array per line.
 * `--stems` reads one word per line and prints `word<TAB>term`, the term empty for a stop word — the layout
 * of shared/reference/polish/wordlist-stems.tsv.gz. A line that yields several terms prints them space-separated.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { cliAnalyzerNames, isCliAnalyzerName, loadAnalyzer } from './analyzer.ts';
import type { Analyzer } from '../lib/analysis/analyzer.ts';
import { CliError } from './cli-error.ts';
import type { CliIo } from './cli-io.ts';

const OPTIONS = {
  analyzer: { type: 'string', default: 'english' },
  text: { type: 'string' },
  json: { type: 'boolean', default: false },
  stems: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const USAGE = `usage: npm run -s cli -- analyze [options] < lines
  --analyzer <name>   ${cliAnalyzerNames.join(' | ')} (default english)
  --text <T>          analyze T instead of stdin (each of its lines separately)
  --json              one JSON array of terms per line
  --stems             one word per line in, "word<TAB>term" out (empty term for a stop word)`;

/** The output line for one input line. */
function formatAnalyzedLine(analyzer: Analyzer, line: string, mode: { json: boolean; stems: boolean }): string {
  const terms = analyzer.analyze(line);
  if (mode.stems) return `${line}\t${mode.json ? JSON.stringify(terms) : terms.join(' ')}`;
  return mode.json ? JSON.stringify(terms) : terms.join(' ');
}

async function* stdinLines(io: CliIo): AsyncGenerator<string> {
  const reader = createInterface({ input: io.stdin(), crlfDelay: Infinity });
  for await (const line of reader) yield line;
}

async function* textLines(text: string): AsyncGenerator<string> {
  yield* text.split(/\r?\n/);
}

export async function analyzeCommand(args: string[], io: CliIo): Promise<void> {
  let values;
  try {
    values = parseArgs({ args, options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)} (try --help)`);
  }
  if (values.help) {
    io.out(`${USAGE}\n`);
    return;
  }
  if (!isCliAnalyzerName(values.analyzer)) throw new CliError(`--analyzer ${values.analyzer}: expected one of ${cliAnalyzerNames.join(', ')}`);
  const analyzer = await loadAnalyzer(values.analyzer);
  const mode = { json: values.json, stems: values.stems };
  const out: string[] = [];
  const flush = () => {
    if (out.length > 0) io.out(out.join('\n') + '\n');
    out.length = 0;
  };
  for await (const line of values.text !== undefined ? textLines(values.text) : stdinLines(io)) {
    out.push(formatAnalyzedLine(analyzer, line, mode));
    if (out.length >= 1000) flush();
  }
  flush();
}

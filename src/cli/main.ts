/**
 * Command-line entry: `npm run -s cli -- <command> …`. Each command lives in its own module and is
 * loaded on demand, so `trec-eval` does not pay for the BM25 or model code.
 */
import { CliError } from './cli-error.ts';

type Command = (args: string[]) => Promise<void>;

const commands: Record<string, () => Promise<Command>> = {
  analyze: async () => (await import('./analyze.ts')).analyzeCommand,
  eval: async () => (await import('./eval.ts')).evalCommand,
  search: async () => (await import('./search.ts')).searchCommand,
  'trec-eval': async () => (await import('./trec-eval.ts')).trecEvalCommand,
};

const usage = `usage: npm run -s cli -- <command> [options]
commands:
  analyze     print the terms an analyzer (english, polish, …) makes of each line of text or stdin
  eval        index a BEIR dataset, run every query of a split and print trec_eval -c measures
  search      one query's ranking on a BEIR dataset (weighted syntax: word^2.5, +term^0.5)
  trec-eval   evaluate a TREC run against qrels, output compatible with trec_eval 9.0.8`;

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const load = commands[name];
  if (!load) throw new CliError(`unknown command "${name}" (try --help)`);
  await (await load())(rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // One line on stderr and a non-zero exit: scripts and CI read the reason without a stack trace.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error: ${message.split('\n')[0]}\n`);
  process.exitCode = error instanceof CliError ? error.exitCode : 1;
});

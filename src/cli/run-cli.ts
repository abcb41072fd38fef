/**
 * The command line as a function: `runCli(argv, io)` runs one command and resolves with its exit code.
 * Each command lives in its own module and is loaded on demand, so `trec-eval` does not pay for the BM25
 * or model code.
 */
import { CliError } from './cli-error.ts';
import type { CliIo } from './cli-io.ts';

type Command = (args: string[], io: CliIo) => Promise<void>;

const commands: Record<string, () => Promise<Command>> = {
  analyze: async () => (await import('./analyze.ts')).analyzeCommand,
  'augment-queries': async () => (await import('./augment-queries.ts')).augmentQueriesCommand,
  eval: async () => (await import('./eval.ts')).evalCommand,
  export: async () => (await import('./export.ts')).exportCommand,
  search: async () => (await import('./search.ts')).searchCommand,
  'trec-eval': async () => (await import('./trec-eval.ts')).trecEvalCommand,
  'train-augment': async () => (await import('./train-augment.ts')).trainAugmentCommand,
  tune: async () => (await import('./tune.ts')).tuneCommand,
};

const usage = `usage: npm run -s cli -- <command> [options]
commands:
  analyze     print the terms an analyzer (english, polish, …) makes of each line of text or stdin
  augment-queries  a split's queries as a trained model weights and expands them (Lucene syntax or JSON lines)
  eval        index a dataset, run every query of a split and print trec_eval -c measures
  export      a dataset as Pyserini reads it (JsonCollection, queries, topics, TREC qrels)
  search      one query's ranking on a dataset (weighted syntax: word^2.5, +term^0.5)
  trec-eval   evaluate a TREC run against qrels, output compatible with trec_eval 9.0.8
  train-augment  learn BM25 query augmentation (weights and added terms) on a dataset's judged split
  tune        search a retriever's parameters on a train or dev split for the best trec_eval measure`;

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === '--help' || name === '-h') {
      io.out(`${usage}\n`);
      return 0;
    }
    const load = commands[name];
    if (!load) throw new CliError(`unknown command "${name}" (try --help)`);
    await (await load())(rest, io);
    return 0;
  } catch (error) {
    // One line on stderr and a non-zero exit: scripts and CI read the reason without a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    io.err(`error: ${message.split('\n')[0]}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}

/** Command-line entry: `npm run -s cli -- <command> …` (the commands: run-cli.ts). */
import { processIo } from './cli-io.ts';
import { runCli } from './run-cli.ts';

void runCli(process.argv.slice(2), processIo).then((code) => {
  process.exitCode = code;
});

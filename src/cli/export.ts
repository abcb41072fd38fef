/**
 * `export`: a dataset for the tools that scale, as Pyserini reads it (src/lib/import/pyserini-export.ts):
 *
 *   npm run -s cli -- export --dataset <path | name> --out <folder>
 *
 * writes `corpus/docs.jsonl` (a JsonCollection: `{"id", "contents"}`, contents = title + " " + text, the
 * text the playground's BM25 indexes), `queries.jsonl` (the queries the same way, for `pyserini.encode`),
 * `topics.tsv` (`id<TAB>text`, for `pyserini.search`) and `qrels.<split>.txt` (TREC qrels) per split.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { formatTrecQrels } from '../lib/data/qrels-writers.ts';
import { pyseriniDocLine, pyseriniQueryLine, topicLine } from '../lib/import/pyserini-export.ts';
import { CliError } from './cli-error.ts';
import type { CliIo } from './cli-io.ts';
import { loadDataset } from './dataset.ts';
import { parseFlags } from './flags.ts';

const OPTIONS = {
  dataset: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const USAGE = `usage: npm run -s cli -- export --dataset <path | name> --out <folder>
  --dataset <path|name>     any dataset eval takes (a BEIR folder or zip, …; or a name under SHARED_DIR/beir)
  --out <folder>            writes corpus/docs.jsonl (Pyserini JsonCollection), queries.jsonl, topics.tsv
                            and qrels.<split>.txt for each split`;

export async function exportCommand(args: string[], io: CliIo): Promise<void> {
  const { values } = parseFlags(args, OPTIONS);
  if (values.help) {
    io.out(`${USAGE}\n`);
    return;
  }
  if (values.dataset === undefined || values.out === undefined) throw new CliError('--dataset <path | name> and --out <folder> are required (try --help)');
  const dataset = await loadDataset(values.dataset);
  const out = values.out;
  await mkdir(join(out, 'corpus'), { recursive: true });
  const corpus = createWriteStream(join(out, 'corpus', 'docs.jsonl'));
  for (const doc of dataset.docs) if (!corpus.write(pyseriniDocLine(doc))) await once(corpus, 'drain');
  corpus.end();
  await once(corpus, 'finish');
  const queries = [...dataset.queries.values()];
  if (queries.length > 0) {
    await writeFile(join(out, 'queries.jsonl'), queries.map(pyseriniQueryLine).join(''));
    await writeFile(join(out, 'topics.tsv'), queries.map(topicLine).join(''));
  }
  for (const [split, qrels] of dataset.qrels) await writeFile(join(out, `qrels.${split}.txt`), formatTrecQrels(qrels));
  io.err(`wrote ${dataset.docs.length} documents, ${queries.length} queries and ${dataset.qrels.size} split${dataset.qrels.size === 1 ? '' : 's'} to ${out}\n`);
}

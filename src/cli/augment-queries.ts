/**
 * `augment-queries`: each judged query of a split as the weighted query a model makes of it, for other
 * tools: Lucene query syntax over index terms (`term^w …`, one `qid<TAB>query` line each) or JSON lines
 * `{"qid", "weights": {term: w}}`.
 *
 *   npm run -s cli -- augment-queries --dataset D --split test --augmenter model.json --format lucene|jsonl
 */
import { judgedQueries } from '../lib/data/beir.ts';
import type { ExpandedTerm } from '../lib/retrievers/ranking.ts';
import { loadAnalyzer, type CliAnalyzerName } from './analyzer.ts';
import { augmenterOf, evaluableQueries, readModel } from './augment-model.ts';
import { CliError } from './cli-error.ts';
import { parseFlags } from './flags.ts';
import type { CliIo } from './cli-io.ts';
import { loadDataset } from './dataset.ts';

const OPTIONS = {
  dataset: { type: 'string' },
  split: { type: 'string', default: 'test' },
  augmenter: { type: 'string' },
  format: { type: 'string', default: 'jsonl' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const USAGE = `usage: npm run -s cli -- augment-queries --dataset <path | name> --augmenter model.json [options]
  --split <name>        the judged split whose queries are written (default test; of the split that trained
                        the model, only its held-out share)
  --format lucene|jsonl lucene: "qid<TAB>term^w term^w …" (Lucene query syntax over index terms);
                        jsonl: {"qid": …, "weights": {term: w}} per line (default jsonl)`;

/** A term as Lucene's query parser reads it verbatim: its syntax characters escaped. */
export function luceneTerm(term: string): string {
  return term.replace(/[+\-&|!(){}[\]^"~*?:\\/\s]/g, (c) => `\\${c}`);
}

export function luceneQuery(bag: readonly ExpandedTerm[]): string {
  return bag.map(({ term, weight }) => `${luceneTerm(term)}^${weight}`).join(' ');
}

export async function augmentQueriesCommand(args: string[], io: CliIo): Promise<void> {
  const parsed = parseFlags(args, OPTIONS);
  const v = parsed.values;
  if (v.help) {
    io.out(`${USAGE}\n`);
    return;
  }
  if (v.dataset === undefined) throw new CliError('--dataset <path | name> is required (try --help)');
  if (v.augmenter === undefined) throw new CliError('--augmenter <model.json> is required (try --help)');
  if (v.format !== 'lucene' && v.format !== 'jsonl') throw new CliError(`--format ${v.format}: expected lucene or jsonl`);
  const loaded = await readModel(v.augmenter);
  const dataset = await loadDataset(v.dataset, { splits: [v.split] });
  const qrels = dataset.qrels.get(v.split)!;
  const { queries } = evaluableQueries(loaded.model, dataset.name, v.split, { queries: judgedQueries(dataset.queries, qrels), qrels });
  const augmenter = await augmenterOf(loaded.model, await loadAnalyzer(loaded.model.bm25.analyzer as CliAnalyzerName));
  const bags = await augmenter.expandBatch(queries.queries.map((query) => query.text));
  const lines = queries.queries.map((query, i) => {
    const bag = bags[i]!;
    return v.format === 'lucene' ? `${query.id}\t${luceneQuery(bag)}` : JSON.stringify({ qid: query.id, weights: Object.fromEntries(bag.map(({ term, weight }) => [term, weight])) });
  });
  io.out(lines.length === 0 ? '' : `${lines.join('\n')}\n`);
}

/**
 * The starter collection's files, bundled into the app by Vite (`?raw`), so the first visit works offline
 * at once with nothing downloaded. The files themselves live in src/lib/starter/data (see its index.ts).
 */
import corpus from '../../lib/starter/data/corpus.jsonl?raw';
import qrels from '../../lib/starter/data/qrels/test.tsv?raw';
import queries from '../../lib/starter/data/queries.jsonl?raw';
import type { StarterTexts } from '../../lib/import/starter-plan.ts';

export const starterTexts: StarterTexts = { corpus, queries, qrels };

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { writeParquet } from '../lib/import/parquet-writer.ts';
import { shared } from '../shared-dir.ts';

/**
 * A local stand-in for the Hugging Face hub, serving under the hub's own URL layout
 * (`/datasets/<owner>/<name>/resolve/<revision>/<path>`, any revision) so the app's download code runs
 * unchanged against it (`?hub=<url>`):
 * - BeIR/scifact: corpus.jsonl.gz (the shared file as it is), queries.jsonl.gz (the shared queries.jsonl,
 *   gzipped here once), and BeIR/scifact-qrels: test.tsv, train.tsv (read in place from SHARED_DIR);
 * - zeta-alpha-ai/NanoSciFact: three NanoBEIR-style parquet files generated at start from SciFact (the
 *   first 20 test queries, every document they judge plus the first 200 of the corpus; qrels without a
 *   score column, as NanoBEIR's).
 * With CORS headers (the app runs on another port), HEAD, Content-Length, and a request log.
 */

export interface HubServer {
  url: string;
  /** Paths requested so far, with their method. */
  requests: string[];
  /**
   * Holds downloads half way (headers and the first 64 KiB sent, the rest after `resume`), so a test can
   * cancel a download however fast this machine is.
   */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

const HELD_PREFIX = 64 * 1024;

interface Served {
  body: Uint8Array;
  type: string;
}

function parseJsonl(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** NanoBEIR-shaped parquet files made from SciFact (see the module comment). */
export function nanoSciFactFixture(): { corpus: Uint8Array; queries: Uint8Array; qrels: Uint8Array; counts: { docs: number; queries: number; pairs: number } } {
  const qrelsLines = readFileSync(shared('beir', 'scifact', 'qrels', 'test.tsv'), 'utf8').trim().split('\n').slice(1);
  const pairs = qrelsLines.map((line) => line.split('\t') as [string, string, string]);
  const queryIds = [...new Set(pairs.map(([query]) => query))].slice(0, 20);
  const chosenPairs = pairs.filter(([query]) => queryIds.includes(query));
  const judgedDocs = new Set(chosenPairs.map(([, doc]) => doc));
  const corpus = parseJsonl(shared('beir', 'scifact', 'corpus.jsonl'));
  const docs = corpus.filter((doc, index) => index < 200 || judgedDocs.has(doc._id as string));
  const queriesById = new Map(parseJsonl(shared('beir', 'scifact', 'queries.jsonl')).map((query) => [query._id as string, query]));
  const queries = queryIds.map((id) => queriesById.get(id)!);
  return {
    corpus: writeParquet(
      [
        { name: '_id', type: 'string', values: docs.map((doc) => doc._id as string) },
        { name: 'text', type: 'string', values: docs.map((doc) => `${doc.title as string} ${doc.text as string}`) },
      ],
      100,
    ),
    queries: writeParquet([
      { name: '_id', type: 'string', values: queries.map((query) => query._id as string) },
      { name: 'text', type: 'string', values: queries.map((query) => query.text as string) },
    ]),
    qrels: writeParquet([
      { name: 'query-id', type: 'string', values: chosenPairs.map(([query]) => query) },
      { name: 'corpus-id', type: 'string', values: chosenPairs.map(([, doc]) => doc) },
    ]),
    counts: { docs: docs.length, queries: queries.length, pairs: chosenPairs.length },
  };
}

function catalog(): Map<string, () => Served> {
  const files = new Map<string, () => Served>();
  const cached = (make: () => Served) => {
    let value: Served | undefined;
    return () => (value ??= make());
  };
  const file = (path: string, type: string) => cached(() => ({ body: readFileSync(path), type }));
  files.set('BeIR/scifact/corpus.jsonl.gz', file(shared('beir', 'scifact', 'corpus.jsonl.gz'), 'application/gzip'));
  files.set('BeIR/scifact/queries.jsonl.gz', cached(() => ({ body: gzipSync(readFileSync(shared('beir', 'scifact', 'queries.jsonl'))), type: 'application/gzip' })));
  files.set('BeIR/scifact-qrels/test.tsv', file(shared('beir', 'scifact', 'qrels', 'test.tsv'), 'text/tab-separated-values'));
  files.set('BeIR/scifact-qrels/train.tsv', file(shared('beir', 'scifact', 'qrels', 'train.tsv'), 'text/tab-separated-values'));
  let fixture: ReturnType<typeof nanoSciFactFixture> | undefined;
  for (const part of ['corpus', 'queries', 'qrels'] as const) {
    files.set(`zeta-alpha-ai/NanoSciFact/${part}/train-00000-of-00001.parquet`, () => {
      fixture ??= nanoSciFactFixture();
      return { body: fixture[part], type: 'application/vnd.apache.parquet' };
    });
  }
  return files;
}

const ROUTE = /^\/datasets\/([^/]+\/[^/]+)\/resolve\/[^/]+\/(.+)$/;

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Expose-Headers': 'Content-Length, X-Linked-Size',
  // An app served cross-origin isolated (COEP credentialless, RP_CROSS_ORIGIN_ISOLATION=1) may fetch it too.
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/** Starts the server on 127.0.0.1 (a free port unless given). */
export async function startHubServer(options: { port?: number } = {}): Promise<HubServer> {
  const files = catalog();
  const requests: string[] = [];
  let held: { promise: Promise<void>; release: () => void } | undefined;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
    requests.push(`${request.method} ${path}`);
    if (request.method === 'OPTIONS') {
      response.writeHead(204, CORS).end();
      return;
    }
    const match = ROUTE.exec(path);
    const make = match ? files.get(`${match[1]}/${match[2]}`) : undefined;
    if (make === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { ...CORS, 'Content-Type': 'text/plain' }).end('Entry not found');
      return;
    }
    const { body, type } = make();
    response.writeHead(200, { ...CORS, 'Content-Type': type, 'Content-Length': String(body.length) });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const gate = held?.promise;
    if (gate === undefined || body.length <= HELD_PREFIX) {
      response.end(body);
      return;
    }
    response.write(body.subarray(0, HELD_PREFIX));
    void gate.then(() => response.end(body.subarray(HELD_PREFIX)));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    pause() {
      if (held !== undefined) return;
      let release = () => {};
      const promise = new Promise<void>((resolve) => (release = resolve));
      held = { promise, release };
    },
    resume() {
      held?.release();
      held = undefined;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

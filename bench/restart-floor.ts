/**
 * The floor under bench:app's restart figure: how long this machine's Chromium takes, after a restart, to
 * show a page that does the least a returning Explore visit must do — a module script that starts two module
 * workers, each of which opens IndexedDB and reads one stored value of `bytes` (the size of SciFact's stored
 * BM25 index), and three lists drawn from their answers. No framework, no app code.
 *
 * Timed as the app's restart is (a fresh profile, one visit that stores the values, the browser closed and
 * started again on that profile, then the page loaded), served by Node on the same cores.
 */
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { columnsReady } from '../tests/browser/app-page.ts';
import { launch, type BrowserSession } from '../tests/browser/harness.ts';

/** The worker: reads its value (storing it on the first visit) and answers with ten rows. */
function workerScript(bytes: number): string {
  return `
const opened = new Promise((resolve, reject) => {
  const request = indexedDB.open('floor', 1);
  request.onupgradeneeded = () => request.result.createObjectStore('values');
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});
const done = (request) => new Promise((resolve, reject) => { request.onsuccess = () => resolve(request.result); request.onerror = () => reject(request.error); });
onmessage = async ({ data: key }) => {
  const db = await opened;
  let value = await done(db.transaction('values').objectStore('values').get(key));
  if (value === undefined) {
    value = new Uint8Array(${bytes}).fill(1).buffer;
    await done(db.transaction('values', 'readwrite').objectStore('values').put(value, key));
  }
  const view = new Uint8Array(value);
  let sum = 0;
  for (let i = 0; i < view.length; i += 4096) sum += view[i];
  postMessage(Array.from({ length: 10 }, (_, rank) => key + ' ' + (rank + 1) + ' ' + sum));
};`;
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>restart floor</title></head>
<body><main></main><script type="module">
const columns = ['bm25', 'dense', 'ledr'].map((name) => {
  const column = document.createElement('article');
  column.className = 'column';
  column.dataset.status = 'preparing';
  column.innerHTML = '<h2>' + name + '</h2><ol></ol>';
  document.querySelector('main').append(column);
  return column;
});
const ask = (key) => new Promise((resolve) => {
  const worker = new Worker('/worker.js', { type: 'module' });
  worker.onmessage = ({ data }) => resolve(data);
  worker.postMessage(key);
});
const [index, vectors] = await Promise.all([ask('index'), ask('vectors')]);
const draw = (column, rows) => {
  column.querySelector('ol').innerHTML = rows.map((row) => '<li>' + row + '</li>').join('');
  column.dataset.status = 'ready';
};
draw(columns[0], index);
draw(columns[1], vectors);
draw(columns[2], index.map((row, i) => row + ' · ' + vectors[i]));
</script></body></html>`;

async function serve(bytes: number): Promise<{ url: string; server: Server }> {
  const worker = workerScript(bytes);
  const server = createServer((request, response) => {
    const script = request.url === '/worker.js';
    response.writeHead(200, { 'Content-Type': script ? 'text/javascript' : 'text/html', 'Cache-Control': 'no-cache' });
    response.end(script ? worker : PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, server };
}

/** Milliseconds from the navigation after a browser restart to the three lists drawn. */
export async function restartFloorMs(bytes: number): Promise<number> {
  const { url, server } = await serve(bytes);
  // The page marks its lists as the app marks its columns, so the app's own wait applies.
  const drawn = (session: BrowserSession) => columnsReady(session.page, 3, { timeout: 60_000, interval: 10 });
  let session = await launch({ asUser: true });
  try {
    await session.page.goto(url);
    await drawn(session);
    const profileDir = session.profileDir;
    await session.close({ keepProfile: true });
    session = await launch({ profileDir, asUser: true });
    const started = performance.now();
    await session.page.goto(url);
    await drawn(session);
    return performance.now() - started;
  } finally {
    await session.close();
    server.close();
  }
}

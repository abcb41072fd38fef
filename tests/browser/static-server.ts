/**
 * A plain static file server, as GitHub Pages or any web server gives one: files of a folder under a
 * mount path, a content type by extension (application/wasm included), 404 for everything else, and no
 * special headers (no COOP/COEP, so the page is not cross-origin isolated; no Content-Security-Policy
 * header, so only the build's meta policy applies). Every request is logged, for tests to inspect.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.gz': 'application/gzip',
};

export interface StaticRequest {
  path: string;
  status: number;
}

export interface StaticServer {
  /** Where the mount path is served, e.g. http://127.0.0.1:41234/retrieval-playground/ */
  url: string;
  origin: string;
  requests: StaticRequest[];
  close(): Promise<void>;
}

/** Serves `folder` at `mount` (a path with leading and trailing slash) on a free port of 127.0.0.1. */
export async function serveStatic(folder: string, mount: string): Promise<StaticServer> {
  const requests: StaticRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const answer = (status: number) => requests.push({ path, status });
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !path.startsWith(mount)) {
      answer(404);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
      return;
    }
    let file = normalize(join(folder, path.slice(mount.length)));
    if (file !== folder && !file.startsWith(folder + sep)) {
      answer(404);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const size = statSync(file).size;
      answer(200);
      res.writeHead(200, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': size });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    } catch {
      answer(404);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${mount}`,
    origin,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

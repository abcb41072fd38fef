/**
 * The Content-Security-Policy the build writes (scripts/vite/content-security-policy.ts). The browser tests
 * check what it does in chromium (tests/browser/security-requests.test.ts); these check what it says.
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import {
  contentSecurityPolicy,
  HNSWLIB_WORKERS,
  inlineStylesOf,
  parseConnectSources,
  policyDirectives,
} from '../../../scripts/vite/content-security-policy.ts';

test('the policy: our origin, the hub and its CDN hosts, WebAssembly, no inline script, no eval', () => {
  expect(contentSecurityPolicy()).toBe(
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; " +
      "connect-src 'self' https://huggingface.co https://*.hf.co; img-src 'self' data:; style-src 'self'; " +
      "object-src 'none'; base-uri 'self'; form-action 'self'",
  );
});

test('RP_EXTRA_CONNECT_SRC adds host sources to connect-src only, and rejects anything else', () => {
  const extra = parseConnectSources('http://127.0.0.1:*, https://mirror.example.org  https://*.mirror.example');
  expect(extra).toEqual(['http://127.0.0.1:*', 'https://mirror.example.org', 'https://*.mirror.example']);
  const directives = new Map(policyDirectives({ extraConnect: extra }));
  expect(directives.get('connect-src')).toEqual(["'self'", 'https://huggingface.co', 'https://*.hf.co', ...extra]);
  expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(parseConnectSources(undefined)).toEqual([]);
  expect(parseConnectSources('  ')).toEqual([]);
  for (const bad of ["'unsafe-inline'", '*', 'https://x.org; script-src *', 'data:', 'javascript:alert(1)', 'mirror.example.org']) {
    expect(() => parseConnectSources(bad), bad).toThrow(/RP_EXTRA_CONNECT_SRC/);
  }
});

test('inline <style> elements are allowed by their sha256, nothing else inline', () => {
  const html = '<html><head><style>body{color:red}</style><style media="print">p{margin:0}</style></head></html>';
  const styles = inlineStylesOf(html);
  expect(styles).toEqual(['body{color:red}', 'p{margin:0}']);
  const hash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
  const directives = new Map(policyDirectives({ inlineStyles: styles }));
  expect(directives.get('style-src')).toEqual(["'self'", hash('body{color:red}'), hash('p{margin:0}')]);
  expect(directives.get('style-src')).not.toContain("'unsafe-inline'");
});

test("the dev server's pages admit Vite's injected <style> elements: 'unsafe-inline' without hashes, scripts unchanged", () => {
  const dev = new Map(policyDirectives({ inlineStyles: ['body{color:red}'], devStyles: true }));
  // A hash next to 'unsafe-inline' would make the browser ignore 'unsafe-inline'.
  expect(dev.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  expect(dev.get('script-src')).toEqual(new Map(policyDirectives()).get('script-src'));
});

test("'unsafe-eval' and data: fetches only for the workers that run hnswlib-wasm", () => {
  const hnswlib = new Map(policyDirectives({ hnswlib: true }));
  expect(hnswlib.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", "'unsafe-eval'"]);
  expect(hnswlib.get('connect-src')).toEqual(["'self'", 'https://huggingface.co', 'https://*.hf.co', 'data:']);
  for (const url of ['/assets/dense.worker-cAHKOR6g.js', '/assets/hnsw.worker-BFiXMRIX.js', '/workers/dense.worker.ts?worker_file&type=module']) {
    expect(HNSWLIB_WORKERS.test(url), url).toBe(true);
  }
  for (const url of ['/assets/bm25.worker-IRwYdSlH.js', '/assets/embed.worker-Bcv12Rzw.js', '/assets/import.worker-x.js', '/assets/main-BHWFOdvX.js', '/']) {
    expect(HNSWLIB_WORKERS.test(url), url).toBe(false);
  }
});

/**
 * The app's Content-Security-Policy, written into every built HTML page as
 * `<meta http-equiv="Content-Security-Policy">` and sent as a header by `vite preview` / `vite dev` (a
 * meta policy governs the document only: a dedicated worker takes the policy of its own script's response,
 * so the header on worker scripts is what restricts the workers' fetches; a static host should send it
 * the same way).
 *
 * - `connect-src`: our origin, plus the Hugging Face hub and the hosts its `/resolve/` URLs redirect to.
 *   CSP applies to every hop of a redirect, and the hub redirects LFS and Xet files to CDN hosts that
 *   change over time; https://huggingface.co/.well-known/meta.json lists them today ("lfsDomains":
 *   cdn-lfs*.hf.co, transfer.xethub*.hf.co; "cdnDomains": *.aws.cdn.hf.co, *.gcp.cdn.hf.co), all under
 *   hf.co, hence `https://*.hf.co` rather than a list that goes stale. `RP_EXTRA_CONNECT_SRC` (space- or
 *   comma-separated sources) adds mirrors or test servers at build time.
 * - `script-src 'self' 'wasm-unsafe-eval'`: compiling WebAssembly (onnxruntime-web, the BM25 kernel,
 *   hnswlib-wasm) needs 'wasm-unsafe-eval'. One exception, for the workers that run hnswlib-wasm only
 *   (workers/dense.worker.ts, workers/hnsw.worker.ts): its Emscripten glue builds each bound function
 *   with `new Function` (embind's craftInvokerFunction), which needs 'unsafe-eval', and fetches its wasm
 *   from the `data:` URI it embeds, which needs `data:` in connect-src; their header policy adds both,
 *   the page and the other workers never get them. transformers.js is kept from importing onnxruntime's
 *   loader from a blob: URL (workers/onnx-runtime.ts), so no 'blob:' either.
 * - `worker-src 'self'`: every worker is a file of the build (onnxruntime-web's thread workers included).
 * - `style-src 'self'` plus a hash of each inline `<style>` element of the page (the diagnostics page has
 *   one); Svelte sets styles through the CSSOM (`element.style`), which CSP does not restrict, so no
 *   'unsafe-inline' in a build. The dev server (`npm start`) is the one exception: Vite injects every
 *   stylesheet as a `<style>` element whose text changes on each hot update, so no hash can name it; its
 *   pages get `style-src 'self' 'unsafe-inline'` (without hashes, which would make browsers ignore
 *   'unsafe-inline'). Scripts, connections and workers stay as strict as in the build.
 * - `img-src 'self' data:`, `object-src 'none'`, `base-uri 'self'`, `form-action 'self'`.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';

/** The hub (datasets and models) and the hosts its downloads redirect to. */
const HUB_CONNECT_SOURCES = ['https://huggingface.co', 'https://*.hf.co'] as const;

/** Worker scripts that run hnswlib-wasm (built as assets/<name>-<hash>.js, served from /workers/ in dev). */
export const HNSWLIB_WORKERS = /\/(dense|hnsw)\.worker[-.]/;

/** Build-time environment variable with extra connect-src sources (mirrors, local test servers). */
export const EXTRA_CONNECT_ENV = 'RP_EXTRA_CONNECT_SRC';

export interface PolicyOptions {
  /** Added to connect-src after 'self' and the hub hosts. */
  extraConnect?: readonly string[];
  /** The policy of a worker that runs hnswlib-wasm: adds 'unsafe-eval' to script-src and data: to connect-src. */
  hnswlib?: boolean;
  /** Inline `<style>` contents of the page (each allowed by its sha256). */
  inlineStyles?: readonly string[];
  /** The dev server's page policy: any inline style (Vite's injected stylesheets), no hashes. */
  devStyles?: boolean;
}

/** A CSP source expression: a scheme-host[:port][/path] source, `*.` wildcard host and `:*` port allowed. */
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:(\d+|\*))?(\/[^\s;,']*)?$/i;

/** The sources of `RP_EXTRA_CONNECT_SRC` (space- or comma-separated); throws on anything that is not a host source. */
export function parseConnectSources(value: string | undefined): string[] {
  const sources = (value ?? '').split(/[\s,]+/).filter((source) => source.length > 0);
  for (const source of sources) {
    if (!SOURCE.test(source)) throw new Error(`${EXTRA_CONNECT_ENV}: "${source}" is not a host source such as https://mirror.example or http://127.0.0.1:*`);
  }
  return sources;
}

function styleHash(css: string): string {
  return `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
}

/** The policy's directives, in order. */
export function policyDirectives(options: PolicyOptions = {}): Array<[string, string[]]> {
  const styles = [...new Set((options.inlineStyles ?? []).map(styleHash))];
  return [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", "'wasm-unsafe-eval'", ...(options.hnswlib ? ["'unsafe-eval'"] : [])]],
    ['worker-src', ["'self'"]],
    ['connect-src', ["'self'", ...HUB_CONNECT_SOURCES, ...(options.extraConnect ?? []), ...(options.hnswlib ? ['data:'] : [])]],
    ['img-src', ["'self'", 'data:']],
    ['style-src', ["'self'", ...(options.devStyles ? ["'unsafe-inline'"] : styles)]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
}

export function contentSecurityPolicy(options: PolicyOptions = {}): string {
  return policyDirectives(options)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** Contents of the inline `<style>` elements of an HTML page. */
export function inlineStylesOf(html: string): string[] {
  return [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi)].map((match) => match[1] ?? '');
}

/**
 * Writes the policy into each HTML page (after Vite's own transforms, so inline styles are hashed as they
 * are served) and sends it as a header from the dev and preview servers.
 */
export function contentSecurityPolicyPlugin(options: { extraConnect?: readonly string[] } = {}): Plugin {
  const extraConnect = options.extraConnect ?? parseConnectSources(process.env[EXTRA_CONNECT_ENV]);
  const headerPolicy = contentSecurityPolicy({ extraConnect });
  const hnswlibPolicy = contentSecurityPolicy({ extraConnect, hnswlib: true });
  /** The header goes on worker scripts only: pages carry the meta policy, with their own style hashes. */
  const addHeader = (server: { middlewares: { use(handler: (req: IncomingMessage, res: ServerResponse, next: () => void) => void): void } }) => {
    server.middlewares.use((req, res, next) => {
      const destination = req.headers['sec-fetch-dest'];
      if (destination === 'worker' || destination === 'sharedworker' || destination === 'serviceworker') {
        res.setHeader('Content-Security-Policy', HNSWLIB_WORKERS.test(req.url ?? '') ? hnswlibPolicy : headerPolicy);
      }
      next();
    });
  };
  return {
    name: 'retrieval-playground:content-security-policy',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const devStyles = context.server !== undefined;
        const policy = contentSecurityPolicy({ extraConnect, inlineStyles: inlineStylesOf(html), devStyles });
        return [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: policy }, injectTo: 'head-prepend' }];
      },
    },
    configureServer: addHeader,
    configurePreviewServer: addHeader,
  };
}

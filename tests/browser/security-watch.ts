/**
 * What the security browser tests watch in a session: script that ran from data (payloads call
 * `window.__xssHit(tag)`), elements that data turned into markup, Content-Security-Policy violations (the
 * page's `securitypolicyviolation` events and chromium's console reports, which also carry the workers'
 * own reports, workers/policy-violations.ts), every request of the page and its workers, and the policy
 * each worker script was served with (a dedicated worker is governed by its own response's header, not by
 * the page's meta policy, so a worker served without one would run unrestricted and violate nothing).
 */
import type { Page } from 'playwright-core';
import type { BrowserSession } from './harness.ts';

declare global {
  interface Window {
    __xssHits: string[];
    __xssHit: (tag: string) => void;
    __cspViolations: string[];
  }
}

/** Markup that data could create if it were rendered as HTML (the app itself never makes any of these). */
export const INJECTED_SELECTOR = [
  'img[src="x"]',
  'img[onerror]',
  'svg[onload]',
  'script:not([src])',
  'iframe',
  'object',
  'embed',
  '[onerror]',
  '[onload]',
  '[onclick]',
  'a[href^="javascript:"]',
  'b.injected',
  'xss',
].join(', ');

/** Injection payloads tagged with `tag` (each calls __xssHit(tag-kind) if it ever runs). */
export function payloads(tag: string) {
  return {
    img: `<img src=x onerror="__xssHit('${tag}-img')">`,
    script: `<script>__xssHit('${tag}-script')</script>`,
    link: `<a href="javascript:__xssHit('${tag}-link')">open</a>`,
    svg: `<svg onload="__xssHit('${tag}-svg')"></svg>`,
    iframe: `<iframe srcdoc="<script>parent.__xssHit('${tag}-iframe')</script>"></iframe>`,
    markup: `<b class="injected">bold</b>`,
    svelte: `{@html '<b class="injected">svelte</b>'}`,
    entity: `&lt;b&gt;entity&lt;/b&gt;`,
  };
}

export interface SecurityWatch {
  /** CSP violations reported so far (page events and console reports of the page and its workers). */
  violations: string[];
  /** Every URL requested by the page and its workers. */
  requests: string[];
  /** The Content-Security-Policy header of each worker script served (null: none), by URL. */
  workerPolicies: Map<string, string | null>;
  /** Tags of payloads that ran. */
  hits(page?: Page): Promise<string[]>;
  /** Elements the data created (INJECTED_SELECTOR), described by their outer HTML. */
  injected(page?: Page): Promise<string[]>;
}

/** Starts watching a session (before its first navigation). */
export async function watchSecurity(session: BrowserSession): Promise<SecurityWatch> {
  const violations: string[] = [];
  const requests: string[] = [];
  const workerPolicies = new Map<string, string | null>();
  await session.context.addInitScript(() => {
    window.__xssHits = [];
    window.__xssHit = (tag: string) => window.__xssHits.push(tag);
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.effectiveDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  const onConsole = (text: string) => {
    if (/Content[- ]Security[- ]Policy/i.test(text)) violations.push(text);
  };
  session.page.on('console', (message) => onConsole(message.text()));
  session.page.on('worker', (worker) => worker.on('console', (message) => onConsole(message.text())));
  session.context.on('request', (request) => requests.push(request.url()));
  session.context.on('response', (response) => {
    const url = response.url();
    if (!/\.worker[-.][^/]*\.js(\?|$)/.test(url)) return;
    void response.headerValue('content-security-policy').then(
      (policy) => workerPolicies.set(url, policy),
      () => workerPolicies.set(url, null),
    );
  });
  const pageOf = (page?: Page) => page ?? session.page;
  return {
    violations,
    requests,
    workerPolicies,
    async hits(page) {
      const p = pageOf(page);
      const [hits, seen] = await p.evaluate(() => [window.__xssHits ?? [], window.__cspViolations ?? []]);
      for (const v of seen) if (!violations.includes(v)) violations.push(v);
      return hits;
    },
    injected: (page) => pageOf(page).evaluate((selector) => [...document.querySelectorAll(selector)].map((el) => el.outerHTML.slice(0, 200)), INJECTED_SELECTOR),
  };
}

/**
 * Reading the page's Content-Security-Policy back (src/app/shell/content-policy.ts): connectBlocked must
 * agree with the browser on the policy the build writes (scripts/vite/content-security-policy.ts). The
 * browser's own verdicts on the same hosts are in tests/browser/security-requests.test.ts (127.0.0.1:* is
 * allowed there, 127.0.0.2 blocked).
 */
import { expect, test } from 'vitest';
import { connectBlocked, directiveSources, sourceMatches } from '../../../src/app/shell/content-policy.ts';
import { contentSecurityPolicy } from '../../../scripts/vite/content-security-policy.ts';

const APP = 'http://127.0.0.1:4173/?view=datasets';
const policy = contentSecurityPolicy({ extraConnect: ['http://127.0.0.1:*', 'https://mirror.example.org'] });

test('hosts the built policy allows: our origin, the hub and its CDN hosts, the extra sources', () => {
  for (const url of [
    'http://127.0.0.1:4173/models/x',
    'https://huggingface.co/datasets/BeIR/scifact/resolve/main/corpus.jsonl.gz',
    'https://cas-bridge.xethub.hf.co/xet-bridge-us/abc',
    'https://us.aws.cdn.hf.co/x',
    'https://cdn-lfs-us-1.hf.co/x',
    'http://127.0.0.1:9/',
    'http://127.0.0.1:38211/datasets/x',
    'https://mirror.example.org/datasets/x',
  ]) {
    expect(connectBlocked(url, policy, APP), url).toBeUndefined();
  }
});

test('hosts it blocks get a sentence naming the origin, the allowed sources and the build variable', () => {
  for (const url of ['http://127.0.0.2:9/', 'https://evil.example/x', 'http://huggingface.co/x', 'https://hf.co/x', 'https://huggingface.co.evil.example/', 'https://mirror.example.org:8443/']) {
    expect(connectBlocked(url, policy, APP), url).toBeDefined();
  }
  expect(connectBlocked('http://127.0.0.2:9/datasets', policy, APP)).toBe(
    "This build's Content-Security-Policy does not allow connecting to http://127.0.0.2:9 (connect-src allows 'self' https://huggingface.co https://*.hf.co http://127.0.0.1:* https://mirror.example.org), " +
      'so downloads from it would fail. Use one of those hosts, or build the app with RP_EXTRA_CONNECT_SRC="http://127.0.0.2:9".',
  );
});

test('no policy, no verdict; default-src stands in for a missing connect-src', () => {
  expect(connectBlocked('https://anywhere.example/', undefined, APP)).toBeUndefined();
  expect(connectBlocked('https://anywhere.example/', "default-src 'self'", APP)).toContain("default-src allows 'self'");
  expect(connectBlocked('http://127.0.0.1:4173/x', "default-src 'self'", APP)).toBeUndefined();
  expect(directiveSources(policy, 'img-src')).toEqual(["'self'", 'data:']);
  expect(directiveSources(policy, 'frame-src')).toBeUndefined();
});

test('source expressions: schemes, wildcard hosts and ports, upgrades, paths', () => {
  const self = new URL(APP);
  const m = (source: string, url: string) => sourceMatches(source, new URL(url), self);
  expect(m('https://*.hf.co', 'https://a.b.hf.co/x')).toBe(true);
  expect(m('https://*.hf.co', 'https://hf.co/x')).toBe(false);
  expect(m('http://example.org', 'https://example.org/')).toBe(true);
  expect(m('https://example.org', 'http://example.org/')).toBe(false);
  expect(m('example.org', 'http://example.org/')).toBe(true);
  expect(m('https:', 'https://any.where/')).toBe(true);
  expect(m('https://example.org/datasets/', 'https://example.org/datasets/x')).toBe(true);
  expect(m('https://example.org/datasets/', 'https://example.org/models/x')).toBe(false);
  expect(m('http://127.0.0.1:*', 'http://127.0.0.1:1/')).toBe(true);
  expect(m('http://127.0.0.1:8080', 'http://127.0.0.1:8081/')).toBe(false);
});

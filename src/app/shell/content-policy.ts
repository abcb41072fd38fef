/**
 * The page's Content-Security-Policy as written into it by the build (scripts/vite/content-security-policy.ts),
 * read back so settings that point the app at another host (the dataset hub, a model mirror) can say at
 * once when the policy will block that host, instead of the download failing later with "Failed to fetch".
 *
 *   const blocked = connectBlocked(hubUrl);   // undefined, or a sentence saying why and what to do
 */

/** The policy of this page (its `<meta http-equiv="Content-Security-Policy">`), if any. */
export function pagePolicy(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? undefined;
}

/** The sources of one directive, or undefined when the policy does not set it. */
export function directiveSources(policy: string, name: string): string[] | undefined {
  for (const part of policy.split(';')) {
    const [directive, ...sources] = part.trim().split(/\s+/);
    if (directive === name) return sources;
  }
  return undefined;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

/** Whether one CSP source expression matches a URL (CSP3 "does url match expression", the common forms). */
export function sourceMatches(source: string, url: URL, self: URL): boolean {
  if (source === "'self'") return url.origin === self.origin;
  if (source === '*') return url.protocol === 'http:' || url.protocol === 'https:';
  if (/^[a-z][a-z0-9+.-]*:$/i.test(source)) return url.protocol === source.toLowerCase();
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[^:/]+)(?::(\d+|\*))?(\/.*)?$/i.exec(source);
  if (!match) return false;
  const [, scheme, host = '', port, path] = match;
  if (scheme !== undefined) {
    const wanted = `${scheme.toLowerCase()}:`;
    // http: also allows https:, ws: also wss: (an upgrade is allowed).
    const upgrade = (wanted === 'http:' && url.protocol === 'https:') || (wanted === 'ws:' && url.protocol === 'wss:');
    if (url.protocol !== wanted && !upgrade) return false;
  } else if (url.protocol !== self.protocol && !(self.protocol === 'http:' && url.protocol === 'https:')) {
    return false;
  }
  const hostname = url.hostname.toLowerCase();
  if (host.startsWith('*.')) {
    if (!hostname.endsWith(host.slice(1).toLowerCase())) return false;
  } else if (host !== '*' && hostname !== host.toLowerCase()) {
    return false;
  }
  const urlPort = url.port || DEFAULT_PORTS[url.protocol] || '';
  if (port === undefined) {
    const schemePort = DEFAULT_PORTS[scheme === undefined ? url.protocol : `${scheme.toLowerCase()}:`];
    if (urlPort !== schemePort && urlPort !== DEFAULT_PORTS[url.protocol]) return false;
  } else if (port !== '*' && port !== urlPort) {
    return false;
  }
  if (path !== undefined && path !== '/') return path.endsWith('/') ? url.pathname.startsWith(path) : url.pathname === path;
  return true;
}

/**
 * Why the policy blocks fetching `url` (connect-src, else default-src), as a sentence that says what to
 * do; undefined when it is allowed, when the page has no policy, or when `url` is not a URL.
 */
export function connectBlocked(url: string, policy: string | undefined = pagePolicy(), self: string = globalThis.location?.href ?? 'http://localhost/'): string | undefined {
  if (policy === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(url, self);
  } catch {
    return undefined;
  }
  const directive = directiveSources(policy, 'connect-src') !== undefined ? 'connect-src' : 'default-src';
  const sources = directiveSources(policy, directive);
  if (sources === undefined) return undefined;
  const selfUrl = new URL(self);
  if (sources.some((source) => sourceMatches(source, target, selfUrl))) return undefined;
  return (
    `This build's Content-Security-Policy does not allow connecting to ${target.origin} (${directive} allows ${sources.join(' ')}), ` +
    `so downloads from it would fail. Use one of those hosts, or build the app with RP_EXTRA_CONNECT_SRC="${target.origin}".`
  );
}

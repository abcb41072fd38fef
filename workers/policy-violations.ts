/**
 * Content-Security-Policy violations inside a worker. A worker's fetches are governed by the policy sent
 * with its own script (scripts/vite/content-security-policy.ts), and a blocked fetch only rejects with
 * "TypeError: Failed to fetch"; the `securitypolicyviolation` event at the worker's global scope says which
 * URL and directive. Each violation is logged as an error (so the page's console and the browser tests see
 * it) and kept, so a failed download can say that the policy blocked it and how to allow the host.
 *
 *   const since = violationCount();
 *   try { … } catch (error) { await violationsSettled(); throw explainBlocked(error, since); }
 */

interface Violation {
  blockedURI: string;
  effectiveDirective: string;
  originalPolicy: string;
}

const violations: Violation[] = [];

self.addEventListener('securitypolicyviolation', (event) => {
  const { blockedURI, effectiveDirective, originalPolicy } = event as SecurityPolicyViolationEvent;
  violations.push({ blockedURI, effectiveDirective, originalPolicy });
  console.error(`Content-Security-Policy (${effectiveDirective}) blocked ${blockedURI}`);
});

/**
 * Lets pending violation events arrive: chromium queues the event as a task of its own, which may run
 * after the blocked fetch has already rejected.
 */
export async function violationsSettled(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** How many violations happened so far (a mark to pass to `explainBlocked`). */
export function violationCount(): number {
  return violations.length;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The sources the policy allows for a directive (its connect-src, …). */
function allowedSources(policy: string, directive: string): string {
  const entry = policy.split(';').map((part) => part.trim()).find((part) => part.startsWith(`${directive} `));
  return entry?.slice(directive.length + 1) ?? '';
}

/** What to tell the person when the policy blocked `blockedURI`. */
function blockedMessage(violation: Violation): string {
  const origin = originOf(violation.blockedURI);
  const allowed = allowedSources(violation.originalPolicy, violation.effectiveDirective);
  return (
    `The app's Content-Security-Policy does not allow connecting to ${origin} (${violation.effectiveDirective} allows ${allowed}). ` +
    `Use one of those hosts, or build the app with RP_EXTRA_CONNECT_SRC="${origin}" to allow this one.`
  );
}

/**
 * `error` as it is, or — when the policy blocked a request since the mark `since` — an Error whose message
 * says so first (the original error is its cause).
 */
export function explainBlocked(error: unknown, since: number): unknown {
  const violation = violations.slice(since).find((v) => v.effectiveDirective === 'connect-src');
  if (violation === undefined) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`${blockedMessage(violation)} (${reason})`, { cause: error });
}

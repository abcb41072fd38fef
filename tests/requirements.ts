/**
 * Prerequisites a test needs that are not npm packages (the locally built models, a WebGPU adapter in
 * chromium). In CI they are expected, so a missing one FAILS the test with the reason instead of
 * skipping it silently; a developer without them can opt out locally with
 *
 *   RP_ALLOW_SKIP=models,webgpu npm test        (or RP_ALLOW_SKIP=all)
 *
 * and the test is then skipped with a printed notice.
 */

export type Requirement = 'models' | 'webgpu';

export const ALLOW_SKIP_ENV = 'RP_ALLOW_SKIP';

function allowedSkips(): Set<string> {
  return new Set((process.env[ALLOW_SKIP_ENV] ?? '').split(/[\s,]+/).filter((name) => name !== ''));
}

/** True when `requirement` may be skipped here (the local opt-out names it, or `all`). */
export function skipAllowed(requirement: Requirement): boolean {
  const allowed = allowedSkips();
  return allowed.has(requirement) || allowed.has('all') || allowed.has('1');
}

/** The message of a missing requirement: what is missing and both ways out. */
export function missingMessage(requirement: Requirement, reason: string): string {
  return `${reason}. This test needs it; to skip it on a machine without it, set ${ALLOW_SKIP_ENV}=${requirement}.`;
}

/**
 * Whether tests needing `requirement` should be skipped: false when it is present; when it is missing,
 * true (with a printed notice) if the local opt-out allows it, else it throws — failing the test file or
 * test that asked, with the reason.
 */
export function skipWithout(requirement: Requirement, present: boolean, reason: string): boolean {
  if (present) return false;
  if (skipAllowed(requirement)) {
    console.warn(`NOTICE: skipped (${ALLOW_SKIP_ENV}=${requirement}): ${reason}`);
    return true;
  }
  throw new Error(missingMessage(requirement, reason));
}

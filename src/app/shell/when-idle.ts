/**
 * Resolves when the page is idle: its frame drawn and no task waiting (requestIdleCallback), at the latest
 * after `timeoutMs`. Where there is no requestIdleCallback (Safari, Node), after a short timeout.
 */
export function whenIdle(timeoutMs = 1_000): Promise<void> {
  return new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 50);
  });
}

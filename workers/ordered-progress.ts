/**
 * Comlink sends the calls of a callback the page passed with `Comlink.proxy` on a port of its own, and a
 * call's reply on the worker's port, so the reply can reach the page before the progress sent ahead of it
 * (a small BM25 build finished with no job in the tray). `withOrderedProgress` hands the page's callback to
 * `work` and, before the call answers, waits until the page has run the last progress message: a proxied
 * call resolves once the page has handled it, and the calls on one port arrive in order.
 */
export async function withOrderedProgress<P, T>(
  onProgress: ((progress: P) => unknown) | undefined,
  work: (report: ((progress: P) => void) | undefined) => Promise<T>,
): Promise<T> {
  if (onProgress === undefined) return work(undefined);
  let last: unknown;
  const result = await work((progress) => {
    last = onProgress(progress);
  });
  // A page that failed in its callback still gets the result.
  await Promise.resolve(last).catch(() => undefined);
  return result;
}

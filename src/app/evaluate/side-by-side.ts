/**
 * Work on a list of items, a few at a time: an evaluation ranks its columns side by side
 * (evaluations.svelte.ts), so a column whose worker is free does not wait for another column's worker.
 *
 *   await sideBySide(columns, 2, (column, index) => evaluate(column), signal, (a, b) => sameWorker(a, b));
 *
 * A free lane takes the first item, in the list's order, that does not `clash` with an item running (two
 * columns ranked in the same worker only take turns in it), or the first item left when every one clashes.
 * Once `signal` aborts or an item's work has failed, no further item starts; the items already started are
 * awaited, then the first failure (or the abort's reason) is thrown.
 */
export async function sideBySide<T>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<void>,
  signal: AbortSignal,
  clash: (a: T, b: T) => boolean = () => false,
): Promise<void> {
  const waiting = items.map((item, index) => ({ item, index }));
  const running = new Set<T>();
  let failure: { error: unknown } | undefined;
  const take = () => {
    const free = waiting.findIndex(({ item }) => ![...running].some((other) => clash(item, other)));
    return waiting.splice(free === -1 ? 0 : free, 1)[0]!;
  };
  const lane = async () => {
    while (failure === undefined && !signal.aborted && waiting.length > 0) {
      const { item, index } = take();
      running.add(item);
      try {
        await work(item, index);
      } catch (error) {
        failure ??= { error };
      } finally {
        running.delete(item);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane));
  if (failure !== undefined) throw failure.error;
  signal.throwIfAborted();
}

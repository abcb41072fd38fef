/**
 * Work on a list of items, a few at a time, in the list's order: an evaluation ranks its columns side by
 * side (evaluations.svelte.ts), so a column whose worker is free does not wait for another column's worker.
 *
 *   await sideBySide(columns, 2, (column, index) => evaluate(column), signal);
 *
 * An item starts as soon as one of the `width` lanes is free. Once `signal` aborts or an item's work has
 * failed, no further item starts; the items already started are awaited, then the first failure (or the
 * abort's reason) is thrown.
 */
export async function sideBySide<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>, signal: AbortSignal): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (failure === undefined && !signal.aborted && next < items.length) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane));
  if (failure !== undefined) throw failure.error;
  signal.throwIfAborted();
}

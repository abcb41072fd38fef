/** Next, previous and random query over a list of query ids (wrapping at the ends). */

export function stepQuery(ids: readonly string[], current: string | null, delta: number): string | undefined {
  if (ids.length === 0) return undefined;
  const at = current === null ? -1 : ids.indexOf(current);
  if (at < 0) return delta > 0 ? ids[0] : ids[ids.length - 1];
  return ids[(((at + delta) % ids.length) + ids.length) % ids.length];
}

/** A random id other than `current` (when there is another). */
export function randomQuery(ids: readonly string[], current: string | null, random: () => number = Math.random): string | undefined {
  const others = ids.length > 1 ? ids.filter((id) => id !== current) : ids;
  return others[Math.floor(random() * others.length)];
}

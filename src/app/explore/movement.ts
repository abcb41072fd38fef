/** How far a document moved in a column compared with the first column (the baseline). */

export type Movement = { kind: 'up'; by: number } | { kind: 'down'; by: number } | { kind: 'same' } | { kind: 'new' };

/** 1-based ranks of a ranking's documents. */
export function rankMap(docIds: Iterable<string>): Map<string, number> {
  const ranks = new Map<string, number>();
  let rank = 0;
  for (const docId of docIds) ranks.set(docId, ++rank);
  return ranks;
}

/** `up` when the document ranks better here than in the baseline, `new` when the baseline lacks it. */
export function movementOf(baseline: ReadonlyMap<string, number>, docId: string, rank: number): Movement {
  const before = baseline.get(docId);
  if (before === undefined) return { kind: 'new' };
  if (before === rank) return { kind: 'same' };
  return before > rank ? { kind: 'up', by: before - rank } : { kind: 'down', by: rank - before };
}

/** ↑3, ↓5, =, new. */
export function movementLabel(movement: Movement): string {
  switch (movement.kind) {
    case 'up':
      return `↑${movement.by}`;
    case 'down':
      return `↓${movement.by}`;
    case 'same':
      return '=';
    case 'new':
      return 'new';
  }
}

/** Tuning's one discipline: the split that tunes is never the split that is reported. */

export class SplitError extends Error {
  override name = 'SplitError';
}

/** Refuses to tune on the evaluated split, with the reason in one line. */
export function checkTuningSplit(tuning: string, evaluated: string): void {
  if (tuning === evaluated) {
    throw new SplitError(`refusing to tune on "${tuning}": it is the split being evaluated; tune on train or dev and evaluate on ${evaluated}`);
  }
}

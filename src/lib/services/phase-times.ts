/**
 * Time a long job (a BM25 build, a corpus embedding) spent in each of its phases, summed over its steps, and
 * published as user-timing measures of the realm it ran in (`<job> · <phase>`, `detail.ms` the summed time),
 * so a benchmark or a profile can say where an open's time went without a debugger.
 */
export class PhaseTimes {
  private readonly totals = new Map<string, number>();
  /** When the job began (`performance.now()`). */
  readonly started = performance.now();

  constructor(private readonly job: string) {}

  /** Adds the time since `since` (a `performance.now()`) to `phase`; returns now. */
  add(phase: string, since: number): number {
    const now = performance.now();
    this.totals.set(phase, (this.totals.get(phase) ?? 0) + now - since);
    return now;
  }

  /** Runs `work`, its time counted to `phase`. */
  async time<T>(phase: string, work: () => Promise<T> | T): Promise<T> {
    const since = performance.now();
    try {
      return await work();
    } finally {
      this.add(phase, since);
    }
  }

  /** One measure per phase, from the job's start to now; `detail.ms` says how much of it the phase took. */
  publish(): void {
    const end = performance.now();
    for (const [phase, ms] of this.totals) {
      try {
        performance.measure(`${this.job} · ${phase}`, { start: this.started, end, detail: { ms } });
      } catch {
        // A realm without user timing: the figures are only for profiles.
      }
    }
  }
}

/** PhaseTimes: each phase's summed time is published as one user-timing measure of the job's span. */
import { afterEach, describe, expect, it } from 'vitest';
import { PhaseTimes } from '../../../src/lib/services/phase-times.ts';

afterEach(() => performance.clearMeasures());

describe('PhaseTimes', () => {
  it('sums the time of each phase over its steps and publishes one measure per phase over the whole job', async () => {
    const phases = new PhaseTimes('test job');
    const busy = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    let since = performance.now();
    for (let step = 0; step < 3; step++) {
      busy(2);
      since = phases.add('read', since);
      busy(1);
      since = phases.add('work', since);
    }
    const answer = await phases.time('last', async () => {
      busy(1);
      return 42;
    });
    expect(answer).toBe(42);
    phases.publish();
    const measures = performance.getEntriesByType('measure').filter((entry) => entry.name.startsWith('test job · '));
    expect(measures.map((entry) => entry.name)).toEqual(['test job · read', 'test job · work', 'test job · last']);
    const ms = Object.fromEntries(measures.map((entry) => [entry.name.slice('test job · '.length), (entry as PerformanceMeasure).detail as { ms: number }]));
    expect(ms['read']!.ms).toBeGreaterThanOrEqual(6);
    expect(ms['work']!.ms).toBeGreaterThanOrEqual(3);
    expect(ms['last']!.ms).toBeGreaterThanOrEqual(1);
    // Every measure spans the job: at least the sum of its phases.
    const span = measures[0]!.duration;
    expect(measures.every((entry) => entry.duration === span)).toBe(true);
    expect(span).toBeGreaterThanOrEqual(ms['read']!.ms + ms['work']!.ms + ms['last']!.ms - 0.001);
  });
});

import { describe, expect, it } from 'vitest';
import { PhaseJobs } from '../../../src/app/engine/phase-jobs.ts';
import type { EngineJob, JobSink } from '../../../src/app/engine/backends.ts';

function recordingSink() {
  const started: Array<{ title: string; finished: boolean }> = [];
  const sink: JobSink = {
    start(title): EngineJob {
      const entry = { title, finished: false };
      started.push(entry);
      return {
        signal: new AbortController().signal,
        progress: () => undefined,
        finish: () => {
          entry.finished = true;
        },
        fail: () => {
          entry.finished = true;
        },
      };
    },
  };
  return { sink, started };
}

describe('PhaseJobs', () => {
  it('finishes the previous phase when the next one starts', () => {
    const { sink, started } = recordingSink();
    const phases = new PhaseJobs(sink, () => undefined);
    phases.enter('model', 'Loading');
    phases.enter('embedding', 'Embedding');
    phases.finish();
    expect(started).toEqual([
      { title: 'Loading', finished: true },
      { title: 'Embedding', finished: true },
    ]);
  });

  it('opens no job for progress that arrives after the preparation finished', () => {
    const { sink, started } = recordingSink();
    const phases = new PhaseJobs(sink, () => undefined);
    phases.enter('indexing', 'Building');
    phases.finish();
    // A worker's last "saving" message can be delivered after the build's promise resolved.
    phases.enter('indexing', 'Building').progress(3, 3, 'saving');
    expect(started).toHaveLength(1);
    expect(started.every((job) => job.finished)).toBe(true);
  });
});

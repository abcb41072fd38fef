import { describe, expect, it } from 'vitest';
import { ModelLoadJob } from '../../../src/app/engine/model-load-job.ts';
import { FakeJobs } from './fakes.ts';

function setup() {
  const jobs = new FakeJobs();
  const job = new ModelLoadJob(() => jobs.start('Loading model glove-100d-sif (q8)', { unit: 'kB', cancellable: false }));
  return { jobs, job };
}

describe('ModelLoadJob', () => {
  it('shows from the first download progress on, bytes summed over files, and finishes', () => {
    const { jobs, job } = setup();
    expect(jobs.list).toEqual([]);
    job.progress({ file: 'a.bin', loaded: 2048, total: 4096 });
    job.progress({ file: 'b.json', loaded: 1024, total: 1024 });
    job.finish(120);
    expect(jobs.list.map((j) => [j.title, j.status, j.progress])).toEqual([
      ['Loading model glove-100d-sif (q8)', 'done', [[2, 4], [3, 5]]],
    ]);
  });

  it('a load whose end overtakes its progress messages shows done, and the late messages open nothing', () => {
    const { jobs, job } = setup();
    job.finish(80);
    job.progress({ file: 'a.bin', loaded: 4096, total: 4096 });
    expect(jobs.list.map((j) => [j.status, j.progress])).toEqual([['done', []]]);
  });

  it('a failure before any progress shows no job (the column shows it), and late progress opens none', () => {
    const { jobs, job } = setup();
    job.fail(new Error('404'));
    job.progress({ file: 'a.bin', loaded: 1, total: 4096 });
    expect(jobs.list).toEqual([]);
  });
});

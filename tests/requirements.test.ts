import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALLOW_SKIP_ENV, skipAllowed, skipWithout } from './requirements.ts';

describe('test requirements: no silent skips', () => {
  const saved = process.env[ALLOW_SKIP_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[ALLOW_SKIP_ENV];
    else process.env[ALLOW_SKIP_ENV] = saved;
  });

  it('runs when the requirement is present', () => {
    delete process.env[ALLOW_SKIP_ENV];
    expect(skipWithout('models', true, 'unused')).toBe(false);
  });

  it('fails with the reason and the opt-out when it is missing', () => {
    delete process.env[ALLOW_SKIP_ENV];
    expect(() => skipWithout('webgpu', false, 'no WebGPU adapter in this chromium')).toThrow(
      /no WebGPU adapter in this chromium\. This test needs it; to skip it on a machine without it, set RP_ALLOW_SKIP=webgpu/,
    );
  });

  it('skips with a printed notice only when the local opt-out names it (or all)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    process.env[ALLOW_SKIP_ENV] = 'models';
    expect(skipWithout('models', false, 'glove not built')).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('glove not built'));
    expect(() => skipWithout('webgpu', false, 'no adapter')).toThrow();
    process.env[ALLOW_SKIP_ENV] = 'all';
    expect(skipAllowed('webgpu')).toBe(true);
    warn.mockRestore();
  });
});

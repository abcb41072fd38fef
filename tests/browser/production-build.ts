import { build, type InlineConfig } from 'vite';

/**
 * `vite build` as `npm run build` runs it. Vitest sets NODE_ENV=test, and under it Vite builds for
 * development (`import.meta.env.DEV`, Svelte's development runtime with its extra checks and warnings):
 * the browser tests would run another bundle than the one users get and `bench:app` measures.
 */
export async function productionBuild(config: InlineConfig): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build(config);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * The project's own models for tests: built into public/models (git-ignored) by the same generator as
 * `npm run models`, skipped when already up to date.
 */
import { buildModels } from '../../../scripts/models/build-models.ts';

export function ensureModels(...names: string[]): void {
  buildModels({ only: names });
}

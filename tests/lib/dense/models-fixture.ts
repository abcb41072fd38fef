/**
 * The project's own models for tests: built by the same generator as `npm run models` — the app's into
 * public/models, the reference ones (glove-100d-sif-onnx, glove-100d-avg) into .cache/models, both
 * git-ignored — skipped when already up to date.
 */
import { buildModels } from '../../../scripts/models/build-models.ts';

export function ensureModels(...names: string[]): void {
  buildModels({ only: names });
}

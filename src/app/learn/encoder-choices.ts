/**
 * The encoders the Learn view offers: the page's GloVe table (frozen, or its rows trained end to end) and
 * the registry's dense transformers (frozen): local/tiny-bert offline (the test model), hub models downloaded.
 */
import { MODEL_REGISTRY, type ModelSpec } from '../../lib/dense/registry.ts';

export const GLOVE_ENCODER = 'local/glove-100d-sif';

export interface EncoderChoice {
  id: string;
  label: string;
  /** A transformer: used frozen (its rows are no table's). */
  transformer: boolean;
}

function choiceOf(spec: ModelSpec): EncoderChoice {
  if (spec.kind === 'static-table') return { id: spec.id, label: `${spec.label}, frozen or rows trained`, transformer: false };
  const where = spec.source === 'local' ? 'offline test model' : `downloads ${spec.sizeMb} MB from the hub`;
  return { id: spec.id, label: `${spec.label}, frozen (${where})`, transformer: true };
}

export const ENCODER_CHOICES: readonly EncoderChoice[] = MODEL_REGISTRY.filter((spec) => spec.id === GLOVE_ENCODER || spec.kind === 'transformer').map(choiceOf);

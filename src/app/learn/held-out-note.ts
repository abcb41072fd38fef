/** How the Learn view names where a model's held-out figures come from, wherever they are shown. */
import type { AugmentTraining } from '../../lib/augment/model-file.ts';
import type { HeldOutChoice } from '../../lib/services/augment-training-service.ts';

/** `a seeded 10 % of train held out (81 queries, seed 1)` or `the dev split (300 queries)`. */
export function heldOutNote(training: Pick<AugmentTraining, 'split' | 'heldOut' | 'settings'>): string {
  const { heldOut } = training;
  if (heldOut.kind === 'split') return `the ${heldOut.split} split, ${heldOut.queries} queries`;
  if (heldOut.kind === 'share') return `a seeded ${Math.round(heldOut.share * 1000) / 10} % of ${training.split} held out from training: ${heldOut.queries} queries, seed ${training.settings.seed}`;
  return 'none';
}

/** The same before training: what the chosen held-out measure will be. */
export function chosenHeldOutNote(split: string, choice: HeldOutChoice, seed: number): string {
  return choice.kind === 'split' ? `the ${choice.split} split` : `a seeded ${Math.round(choice.share * 1000) / 10} % of ${split} held out from training, seed ${seed}`;
}

import type { Bo1Options } from './bo1.ts';
import type { Rm3Options } from './rm3.ts';

/** A pseudo-relevance-feedback request: the method and its parameters (absent ones: the method's defaults). */
export type PrfRequest = ({ method: 'rm3' } & Omit<Rm3Options, 'k'>) | ({ method: 'bo1' } & Omit<Bo1Options, 'k'>);

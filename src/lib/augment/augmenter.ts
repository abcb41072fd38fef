/**
 * A trained model applied to a query: the weighted bag BM25 ranks with. A query term weighs
 * w(q)ᵢ · (1 + a(q)ᵢ) (zero drops it); every other vocabulary term with a(q) > 0 is added with weight a(q).
 * The BM25 search multiplies each weight by the term's IDF and f(d), which is eq. 1 exactly.
 */
import type { ExpandedTerm } from '../retrievers/ranking.ts';
import { forwardAugmentation } from './batch-loss.ts';
import type { EncodedQuery, QueryEncoder } from './encoder.ts';
import { dot, encodeMix, type AugmentParams } from './model.ts';

export class Augmenter {
  private readonly ordinals: Map<string, number>;
  private readonly e0: Float32Array;
  private readonly enc: Float32Array;

  constructor(
    readonly params: AugmentParams,
    readonly encoder: QueryEncoder,
  ) {
    this.ordinals = new Map(params.terms.map((term, t) => [term, t]));
    this.e0 = new Float32Array(params.encoderDim + 1);
    this.enc = new Float32Array(params.encoderDim + 1);
  }

  /** a(q) over the vocabulary (zeros included). */
  augmentation(text: string): Float32Array {
    return this.augmentationOf(this.encoder.encode(text).sentence);
  }

  private augmentationOf(sentence: Parameters<typeof encodeMix>[2]): Float32Array {
    const { W, terms } = this.params;
    const D = this.params.encoderDim + 1;
    encodeMix(this.params, this.encoder, sentence, this.e0, 0, true);
    const a = new Float32Array(terms.length);
    for (let t = 0; t < terms.length; t++) a[t] = Math.max(0, dot(W, t * D, this.e0, 0, D));
    return a;
  }

  /** The weighted bag of `text`: its kept terms first (query order), then the added ones by weight. */
  expand(text: string): ExpandedTerm[] {
    const encoded = this.encoder.encode(text);
    return this.bagOf(encoded, this.augmentationOf(encoded.sentence));
  }

  /** The weighted bags of many texts, encoded first in batches (any encoder; a transformer needs this one). */
  async expandBatch(texts: readonly string[], signal?: AbortSignal): Promise<ExpandedTerm[][]> {
    return this.bagsOf(await this.encoder.encodeMany(texts, signal));
  }

  /**
   * The weighted bags of many texts, a(q) computed for the batch at once (as training does). Synchronous:
   * a transformer encoder must have encoded the texts already (expandBatch does).
   */
  expandMany(texts: readonly string[]): ExpandedTerm[][] {
    return this.bagsOf(texts.map((text) => this.encoder.encode(text)));
  }

  private bagsOf(encodings: readonly EncodedQuery[]): ExpandedTerm[][] {
    const D = this.params.encoderDim + 1;
    const V = this.params.terms.length;
    const bags: ExpandedTerm[][] = [];
    // In slices, so the batch's z matrix stays a few megabytes.
    const slice = 32;
    for (let start = 0; start < encodings.length; start += slice) {
      const encoded = encodings.slice(start, start + slice);
      const e0 = new Float32Array(encoded.length * D);
      encoded.forEach((query, q) => encodeMix(this.params, this.encoder, query.sentence, e0, q * D, true));
      const z = new Float32Array(encoded.length * V);
      forwardAugmentation(this.params, e0, encoded.length, z);
      encoded.forEach((query, q) => {
        const a = z.subarray(q * V, (q + 1) * V);
        for (let t = 0; t < V; t++) if (a[t]! < 0) a[t] = 0;
        bags.push(this.bagOf(query, a));
      });
    }
    return bags;
  }

  private bagOf(encoded: EncodedQuery, a: Float32Array): ExpandedTerm[] {
    const D = this.params.encoderDim + 1;
    const kept: ExpandedTerm[] = [];
    const own = new Set<number>();
    encoded.terms.forEach((term, i) => {
      encodeMix(this.params, this.encoder, encoded.termMixes[i]!, this.enc);
      const w = Math.max(0, dot(this.params.u, 0, this.enc, 0, D));
      const t = this.ordinals.get(term) ?? -1;
      if (t >= 0) own.add(t);
      const weight = Math.fround(w * (1 + (t >= 0 ? a[t]! : 0)));
      if (weight > 0 && Number.isFinite(weight)) kept.push({ term, weight, added: false });
    });
    const added: ExpandedTerm[] = [];
    for (let t = 0; t < a.length; t++) {
      if (a[t]! > 0 && !own.has(t)) added.push({ term: this.params.terms[t]!, weight: a[t]!, added: true });
    }
    added.sort((x, y) => y.weight - x.weight || (x.term < y.term ? -1 : 1));
    return [...kept, ...added];
  }
}

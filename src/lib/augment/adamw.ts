/** AdamW (Loshchilov & Hutter): Adam's step with weight decay applied to the weights directly, not to the gradient. */
export interface AdamWOptions {
  lr: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
}

export class AdamW {
  private readonly m: Float32Array;
  private readonly v: Float32Array;
  private steps = 0;
  private readonly beta1: number;
  private readonly beta2: number;
  private readonly eps: number;
  private readonly weightDecay: number;

  constructor(
    size: number,
    private readonly options: AdamWOptions,
  ) {
    this.m = new Float32Array(size);
    this.v = new Float32Array(size);
    this.beta1 = options.beta1 ?? 0.9;
    this.beta2 = options.beta2 ?? 0.999;
    this.eps = options.eps ?? 1e-8;
    this.weightDecay = options.weightDecay ?? 0;
  }

  /** One step of `params` along `grads` (same length). */
  step(params: Float32Array, grads: Float32Array): void {
    const { m, v, beta1, beta2, eps, weightDecay } = this;
    const { lr } = this.options;
    this.steps++;
    const correction1 = 1 - beta1 ** this.steps;
    const correction2 = 1 - beta2 ** this.steps;
    const decay = 1 - lr * weightDecay;
    for (let i = 0; i < params.length; i++) {
      const grad = grads[i]!;
      const mi = (m[i] = beta1 * m[i]! + (1 - beta1) * grad);
      const vi = (v[i] = beta2 * v[i]! + (1 - beta2) * grad * grad);
      params[i] = params[i]! * decay - (lr * (mi / correction1)) / (Math.sqrt(vi / correction2) + eps);
    }
  }
}

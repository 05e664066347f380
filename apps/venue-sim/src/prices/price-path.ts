import { gaussian } from './prng';

// Math functions held locally: hot loops stay fast in sandboxed runtimes (jest) too.
const { sqrt, min, max, trunc } = Math;

export interface PricePathOptions {
  seed: number;
  /** Separates the streams of different markets under one seed. */
  stream: number;
  /** Standard deviation of the log price over one step. */
  sigmaPerStep: number;
  /** Above this many steps the variance stops growing, so long histories stay in a plausible range. */
  capSteps: number;
  /** The path is defined for steps in [-2^depth, 2^depth] around the anchor (step 0). */
  depth: number;
}

/**
 * A seeded random walk of the log price, built as a Brownian bridge on a binary tree around the anchor:
 * logOffset(0) = 0, and the value at any step is computed in `depth` hashes, without walking the steps in
 * between. History (negative steps) and the live future (positive steps) are one consistent path.
 */
export class PricePath {
  private readonly span: number;
  private readonly lowEdge: number;
  private readonly highEdge: number;

  constructor(private readonly options: PricePathOptions) {
    this.span = 2 ** options.depth;
    this.lowEdge = this.displacement(-this.span) * this.sd(this.span);
    this.highEdge = this.displacement(this.span) * this.sd(this.span);
  }

  /** Log-price offset from the anchor at `step` (clamped to the path's range). */
  logOffset(step: number): number {
    const k = max(-this.span, min(this.span, trunc(step)));
    if (k === 0) return 0;
    let lo = k < 0 ? -this.span : 0;
    let hi = k < 0 ? 0 : this.span;
    let vlo = k < 0 ? this.lowEdge : 0;
    let vhi = k < 0 ? 0 : this.highEdge;
    if (k === lo) return vlo;
    if (k === hi) return vhi;
    while (hi - lo > 1) {
      const mid = (lo + hi) / 2;
      const vmid = (vlo + vhi) / 2 + (this.displacement(mid) * this.sd(hi - lo)) / 2;
      if (k === mid) return vmid;
      if (k < mid) {
        hi = mid;
        vhi = vmid;
      } else {
        lo = mid;
        vlo = vmid;
      }
    }
    return k === lo ? vlo : vhi;
  }

  private sd(steps: number): number {
    return this.options.sigmaPerStep * sqrt(min(steps, this.options.capSteps));
  }

  private displacement(step: number): number {
    return gaussian(this.options.seed, this.options.stream, step + this.span);
  }
}

/** Tree depth that covers `steps` steps on each side of the anchor. */
export function depthFor(steps: number): number {
  return max(1, Math.ceil(Math.log2(max(2, steps))));
}

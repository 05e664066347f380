import { type Market, marketConfig, priceToScaled } from '@paper/exchange';
import { Prng } from './prng';

export const STEP_MS = 5 * 60_000;

/** Per market: 5-minute random-walk amplitude and the drift of the final rally, in 1/100000 of the price. */
const WALK: Record<Market, { amplitude: number; rally: number }> = {
  BTC: { amplitude: 150, rally: 55 },
  ETH: { amplitude: 190, rally: 60 },
};

/** Steps of the final rally (the last 6 hours rise about 4%): winners of the rally drain the LP. */
export const RALLY_STEPS = 72;

/**
 * A deterministic price history at the market's integer scale, one mid per 5 minutes, ending exactly at
 * `anchor` (the price the venue starts at), built backwards with integer steps only.
 */
export function pricePath(market: Market, anchor: string, steps: number, seed: number): bigint[] {
  const rng = new Prng(seed);
  const { amplitude, rally } = WALK[market];
  const path: bigint[] = new Array(steps + 1);
  path[steps] = priceToScaled(anchor, marketConfig(market).priceDecimals);
  for (let i = steps - 1; i >= 0; i -= 1) {
    const next = path[i + 1]!;
    let d = rng.int(-amplitude, amplitude) + rng.int(-amplitude, amplitude) + rng.int(-amplitude, amplitude);
    if (i >= steps - RALLY_STEPS) d += rally;
    path[i] = next - (next * BigInt(d)) / 100_000n;
  }
  return path;
}

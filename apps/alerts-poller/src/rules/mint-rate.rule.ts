import type { ProtocolRules } from '@paper/contracts';
import {
  ARMED,
  DEFAULT_REARM_MARGIN,
  type Episode,
  microToUsd,
  type RuleAlert,
  stepEpisode,
  usdToMicro,
} from './rule-types';

const HOUR_MS = 3_600_000;

/** Reward-token (PAPER) supply observed at a time; supply in integer micro-units as a string. */
export interface SupplySample {
  t: number;
  supplyMicro: string;
}

/** Keeps at most one sample per `spacingMs` and only what the last hour needs (plus one older sample). */
export function addSupplySample(
  samples: readonly SupplySample[],
  now: number,
  supply: number,
  spacingMs = 30_000,
): SupplySample[] {
  const next = [...samples].sort((a, b) => a.t - b.t);
  const last = next[next.length - 1];
  if (!last || now - last.t >= spacingMs) next.push({ t: now, supplyMicro: usdToMicro(supply).toString() });
  else next[next.length - 1] = { t: last.t, supplyMicro: last.supplyMicro };
  const cutoff = now - HOUR_MS;
  const firstInside = next.findIndex((s) => s.t >= cutoff);
  const keepFrom = firstInside <= 0 ? 0 : firstInside - 1;
  return next.slice(keepFrom);
}

/**
 * PAPER minted over the last hour: the latest supply minus the supply an hour ago (or the oldest
 * sample when the history is younger than an hour, which can only under-estimate). Micro-units.
 */
export function mintedLastHourMicro(
  samples: readonly SupplySample[],
  now: number,
  currentSupply: number,
): bigint | undefined {
  const sorted = [...samples].sort((a, b) => a.t - b.t);
  if (sorted.length === 0) return undefined;
  const cutoff = now - HOUR_MS;
  let base = sorted[0]!;
  for (const s of sorted) if (s.t <= cutoff) base = s;
  const minted = usdToMicro(currentSupply) - BigInt(base.supplyMicro);
  return minted > 0n ? minted : 0n;
}

/** Per-account state of the mint-rate rule. */
export interface MintRateState extends Episode {
  enabled: boolean;
}

/**
 * Mint rate above `thresholdPerHour`: fires once when more PAPER than the threshold was minted over the
 * last hour, re-arms at or below `threshold * (1 - margin)`. First evaluation and rule turn-on are silent.
 */
export function evaluateMintRate(
  prev: MintRateState | undefined,
  rules: ProtocolRules,
  mintedMicro: bigint,
  margin = DEFAULT_REARM_MARGIN,
): { state: MintRateState; alerts: RuleAlert[] } {
  const enabled = rules.mintRate.enabled;
  const silent = !prev || !prev.enabled || !enabled;
  const threshold = usdToMicro(rules.mintRate.thresholdPerHour);
  const rearmAt = usdToMicro(rules.mintRate.thresholdPerHour * (1 - margin));
  const { next, fired } = stepEpisode(prev ?? ARMED, mintedMicro > threshold, mintedMicro <= rearmAt, silent);
  const alerts: RuleAlert[] = fired
    ? [
        {
          kind: 'mint_rate',
          episodeKey: String(next.episode),
          occurredAt: new Date(),
          details: { mintedLastHour: microToUsd(mintedMicro), thresholdPerHour: rules.mintRate.thresholdPerHour },
        },
      ]
    : [];
  return { state: { enabled, ...next }, alerts };
}

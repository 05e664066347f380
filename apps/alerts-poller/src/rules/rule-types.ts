import type { AlertKind } from '@paper/alerts-data';

/**
 * A threshold rule is `armed` until the watched value crosses the threshold; then it fires once and
 * stays `firing` until the value recovers past the threshold by the hysteresis margin.
 */
export type Phase = 'armed' | 'firing';

export interface Episode {
  phase: Phase;
  /** Number of times the rule fired so far; part of the event id of the next alert. */
  episode: number;
}

export const ARMED: Readonly<Episode> = Object.freeze({ phase: 'armed', episode: 0 });

/** An alert a rule wants to raise; the event id is derived from `scope | kind | episodeKey`. */
export interface RuleAlert {
  kind: AlertKind;
  episodeKey: string;
  details: Record<string, unknown>;
  occurredAt: Date;
}

/**
 * Moves an episode on: armed + breached fires (unless silent: seeding, or the rule is off); firing +
 * recovered re-arms. Anything else keeps the phase. Neither happens when the value is unknown.
 */
export function stepEpisode(
  prev: Episode,
  breached: boolean,
  recovered: boolean,
  silent: boolean,
): { next: Episode; fired: boolean } {
  if (prev.phase === 'armed' && breached)
    return { next: { phase: 'firing', episode: prev.episode + 1 }, fired: !silent };
  if (prev.phase === 'firing' && recovered) return { next: { phase: 'armed', episode: prev.episode }, fired: false };
  return { next: { phase: prev.phase, episode: prev.episode }, fired: false };
}

/** USDC amount of a tool result (a number with at most 6 decimals) in integer micro-units. */
export function usdToMicro(value: number): bigint {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  return BigInt(Math.round(value * 1_000_000));
}

/** Integer micro-units as a decimal USDC string (`-12.5`, `1000`). */
export function microToUsd(micro: bigint): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const whole = abs / 1_000_000n;
  const fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Hysteresis: a threshold alert re-arms only after the value recovers past the threshold by this fraction. */
export const DEFAULT_REARM_MARGIN = 0.2;

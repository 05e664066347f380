import type { WalletRules } from '@paper/contracts';
import type { AccountData, MarketName, Marks } from '../tool-api/tool-data';
import { ARMED, DEFAULT_REARM_MARGIN, type Phase, type RuleAlert, stepEpisode } from './rule-types';

/** An open position as the poller remembers it between account fetches. */
export interface TrackedPosition {
  market: MarketName;
  side: 'long' | 'short';
  leverage: number;
  marginUsd: number;
  entryPrice: number;
  bustPrice: number;
  openedAt: string;
  phase: Phase;
  episode: number;
}

/** How long a position the feed reported closed is kept out of account reads (which may be cached). */
export const CLOSED_MEMORY_MS = 30_000;

/** Rule state `positions`: the wallet's open positions and the liquidation-risk episode of each. */
export interface PositionsState {
  /** Whether the liquidation rule was on at the last evaluation (turning it on starts silently). */
  enabled: boolean;
  positions: Record<string, TrackedPosition>;
  /** Position id -> when the feed reported it closed or liquidated (ms), for CLOSED_MEMORY_MS. */
  closed?: Record<string, number>;
}

/**
 * Distance to liquidation in percent of the mark, as the tool API defines it (|mark - bust| / mark),
 * and 0 once the mark is at or past the bust price.
 */
export function liquidationDistancePct(side: 'long' | 'short', mark: number, bust: number): number {
  if (!(mark > 0)) return 0;
  const gap = side === 'long' ? mark - bust : bust - mark;
  return gap <= 0 ? 0 : (gap / mark) * 100;
}

export interface LiquidationInput {
  prev: PositionsState | undefined;
  rules: WalletRules;
  /** The account fetched this cycle, when it was. */
  account?: AccountData;
  /** Mark prices of this cycle, when get_markets answered. */
  marks?: Marks;
  /** Positions the trade feed reported closed or liquidated this cycle. */
  closedIds: ReadonlySet<string>;
  margin?: number;
  /** Evaluation time (ms); defaults to now. */
  now?: number;
}

export type LiquidationResult =
  | { status: 'ok'; state: PositionsState; alerts: RuleAlert[] }
  /** Nothing reliable to evaluate (no fresh account and no marks): state kept as it was. */
  | { status: 'unknown' };

interface Observed {
  id: string;
  position: Omit<TrackedPosition, 'phase' | 'episode'>;
  markPrice: number;
  distancePct: number;
}

function observe(input: LiquidationInput, closedIds: ReadonlySet<string>): Observed[] | undefined {
  if (input.account) {
    return input.account.positions
      .filter((p) => !closedIds.has(p.positionId))
      .map((p) => ({
        id: p.positionId,
        position: {
          market: p.market,
          side: p.side,
          leverage: p.leverage,
          marginUsd: p.marginUsd,
          entryPrice: p.entryPrice,
          bustPrice: p.bustPrice,
          openedAt: p.openedAt,
        },
        markPrice: p.markPrice,
        distancePct: p.liquidationDistancePercent,
      }));
  }
  if (!input.prev || !input.marks) return undefined;
  const observed: Observed[] = [];
  for (const [id, p] of Object.entries(input.prev.positions)) {
    if (closedIds.has(id)) continue;
    const mark = input.marks[p.market];
    if (mark === undefined) return undefined;
    const { phase: _phase, episode: _episode, ...position } = p;
    observed.push({ id, position, markPrice: mark, distancePct: liquidationDistancePct(p.side, mark, p.bustPrice) });
  }
  return observed;
}

/**
 * Liquidation risk per open position: fires once when the distance to liquidation drops below
 * `belowPct`, re-arms when it is back above `belowPct * (1 + margin)`. Between account fetches the
 * distance is computed from the remembered bust price and this cycle's mark price. Positions the feed
 * reported closed are dropped at once and kept out of (possibly cached) account reads for a while. A position
 * already below the threshold when it is first seen (a wallet at risk when it is watched, a position opened
 * since) alerts at once; while the rule is off nothing fires and every position stays armed, so turning the
 * rule on alerts once for a position at risk then.
 */
export function evaluateLiquidationRisk(input: LiquidationInput): LiquidationResult {
  const now = input.now ?? Date.now();
  const closed: Record<string, number> = {};
  for (const [id, at] of Object.entries(input.prev?.closed ?? {})) if (now - at < CLOSED_MEMORY_MS) closed[id] = at;
  for (const id of input.closedIds) closed[id] ??= now;
  const observed = observe(input, new Set(Object.keys(closed)));
  if (!observed) return { status: 'unknown' };
  const { rules, prev } = input;
  const enabled = rules.liquidation.enabled;
  const turnedOn = prev !== undefined && !prev.enabled;
  const below = rules.liquidation.belowPct;
  const rearmAt = below * (1 + (input.margin ?? DEFAULT_REARM_MARGIN));
  const positions: Record<string, TrackedPosition> = {};
  const alerts: RuleAlert[] = [];
  for (const o of observed) {
    const known = prev?.positions[o.id] ?? ARMED;
    // While the rule is off, and when it was just turned on, a position starts over armed.
    const before = enabled && !turnedOn ? known : { phase: ARMED.phase, episode: known.episode };
    if (!enabled) {
      positions[o.id] = { ...o.position, ...before };
      continue;
    }
    const { next, fired } = stepEpisode(before, o.distancePct < below, o.distancePct >= rearmAt, false);
    positions[o.id] = { ...o.position, phase: next.phase, episode: next.episode };
    if (fired) {
      alerts.push({
        kind: 'liquidation_risk',
        episodeKey: `${o.id}:${next.episode}`,
        occurredAt: new Date(),
        details: {
          positionId: o.id,
          market: o.position.market,
          side: o.position.side,
          leverage: o.position.leverage,
          marginUsd: o.position.marginUsd,
          entryPrice: o.position.entryPrice,
          markPrice: o.markPrice,
          bustPrice: o.position.bustPrice,
          distancePct: Math.round(o.distancePct * 10_000) / 10_000,
          belowPct: below,
        },
      });
    }
  }
  return { status: 'ok', state: { enabled, positions, ...(Object.keys(closed).length > 0 ? { closed } : {}) }, alerts };
}

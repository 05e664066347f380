import type { AlertKind } from '@paper/alerts-data';
import type { WalletRules } from '@paper/contracts';
import type { TradeEvent } from '../tool-api/tool-data';
import type { RuleAlert } from './rule-types';

const KIND: Record<TradeEvent['type'], { kind: AlertKind; rule: 'opened' | 'closed' | 'liquidated' }> = {
  open: { kind: 'position_opened', rule: 'opened' },
  close: { kind: 'position_closed', rule: 'closed' },
  liquidation: { kind: 'position_liquidated', rule: 'liquidated' },
};

/** The facts of a trade event that an alert carries. */
export function tradeDetails(event: TradeEvent): Record<string, unknown> {
  return {
    positionId: event.positionId,
    market: event.market,
    side: event.side,
    leverage: event.leverage,
    marginUsd: event.marginUsd,
    notionalUsd: event.notionalUsd,
    [event.type === 'open' ? 'entryPrice' : 'exitPrice']: event.price,
    ...(event.pnlUsd !== null ? { pnlUsd: event.pnlUsd } : {}),
  };
}

/**
 * Opened / closed / liquidated alerts of one watch from the trade events of its wallet. Events from
 * before the watch existed are ignored (a new watch starts silently); the episode key is the position
 * id, so an event seen twice (feed overlap, restart) yields the same event id.
 */
export function evaluateTradeEvents(
  rules: WalletRules,
  watchCreatedAt: Date,
  events: readonly TradeEvent[],
): RuleAlert[] {
  const alerts: RuleAlert[] = [];
  for (const event of events) {
    const { kind, rule } = KIND[event.type];
    if (!rules[rule]) continue;
    const occurredAt = new Date(event.time);
    if (Number.isNaN(occurredAt.getTime()) || occurredAt < watchCreatedAt) continue;
    alerts.push({ kind, episodeKey: event.positionId, details: tradeDetails(event), occurredAt });
  }
  return alerts;
}

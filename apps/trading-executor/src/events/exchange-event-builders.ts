import type { ExchangeEventType, IntentResult } from '@paper/contracts';
import { type Market, marketConfig, microToUsdc, scaledToPrice } from '@paper/exchange';
import { exchangeEvent, type NewExchangeEvent, type PositionRow } from '@paper/exchange-data';

/**
 * The event-log records of what the executor settles, with the tools' field names and units: USDC and
 * prices as numbers read from their exact decimal text (never float arithmetic on money).
 */

/** A stored position's figures (integers as stored: micro-USDC, prices at the market's scale). */
export type PositionFacts = Pick<
  PositionRow,
  'id' | 'wallet' | 'market' | 'side' | 'marginMicro' | 'leverage' | 'notionalMicro' | 'entryPrice' | 'bustPrice'
>;

/** How a position was settled (micro-USDC, the exit at the market's scale). */
export interface Settlement {
  exit: bigint;
  pnlMicro: bigint;
  feeMicro: bigint;
  paidMicro: bigint;
  queuedMicro: bigint;
  rewardMintedMicro: bigint;
  /** The close intent, or null for a liquidation by the exchange. */
  intentId: string | null;
}

const usd = (micro: bigint): number => Number(microToUsdc(micro));
const price = (market: Market, scaled: bigint): number =>
  Number(scaledToPrice(scaled, marketConfig(market).priceDecimals));

function positionFields(p: PositionFacts) {
  return {
    positionId: p.id,
    market: p.market,
    side: p.side,
    leverage: p.leverage,
    marginUsd: usd(p.marginMicro),
    notionalUsd: usd(p.notionalMicro),
    entryPrice: price(p.market, p.entryPrice),
    bustPrice: price(p.market, p.bustPrice),
  };
}

/** `position.closed` or `position.liquidated`, with the settled figures. */
export function settledEvent(
  type: 'position.closed' | 'position.liquidated',
  p: PositionFacts,
  s: Settlement,
): NewExchangeEvent {
  return exchangeEvent(
    type,
    {
      ...positionFields(p),
      exitPrice: price(p.market, s.exit),
      pnlUsd: usd(s.pnlMicro),
      feeUsd: usd(s.feeMicro),
      paidUsd: usd(s.paidMicro),
      queuedUsd: usd(s.queuedMicro),
      rewardMinted: usd(s.rewardMintedMicro),
      intentId: s.intentId,
    },
    { wallet: p.wallet, market: p.market },
  );
}

const OUTCOME_TYPES: Record<IntentResult['status'], ExchangeEventType> = {
  executed: 'intent.executed',
  refused: 'intent.refused',
  cancelled: 'intent.cancelled',
  expired: 'intent.expired',
};

/**
 * The outcome of each settled intent (`intent.executed` / `refused` / `cancelled` / `expired`) and the
 * position each executed open opened. A cancelled intent names the cancel intent that cancelled it.
 */
export function intentOutcomeEvents(results: readonly IntentResult[]): NewExchangeEvent[] {
  const cancelledBy = new Map(
    results.filter((r) => r.cancelledIntentId).map((r) => [r.cancelledIntentId!, r.intentId]),
  );
  const events: NewExchangeEvent[] = [];
  for (const r of results) {
    const base = { intentId: r.intentId, kind: r.kind };
    const scope = { wallet: r.wallet, market: r.opened?.market ?? null };
    switch (OUTCOME_TYPES[r.status]) {
      case 'intent.executed':
        events.push(exchangeEvent('intent.executed', { ...base, message: r.message }, scope));
        break;
      case 'intent.refused':
        events.push(
          exchangeEvent('intent.refused', { ...base, reason: r.reason ?? 'refused', message: r.message }, scope),
        );
        break;
      case 'intent.cancelled':
        events.push(
          exchangeEvent(
            'intent.cancelled',
            { ...base, cancelledBy: cancelledBy.get(r.intentId) ?? null, message: r.message },
            scope,
          ),
        );
        break;
      default:
        events.push(exchangeEvent('intent.expired', { ...base, message: r.message }, scope));
    }
    const o = r.opened;
    if (r.status === 'executed' && o) {
      events.push(
        exchangeEvent(
          'position.opened',
          {
            positionId: o.positionId,
            market: o.market,
            side: o.side,
            leverage: o.leverage,
            marginUsd: Number(o.marginUsd),
            notionalUsd: Number(o.notionalUsd),
            entryPrice: Number(o.entryPrice),
            bustPrice: Number(o.bustPrice),
            intentId: r.intentId,
          },
          { wallet: r.wallet, market: o.market },
        ),
      );
    }
  }
  return events;
}

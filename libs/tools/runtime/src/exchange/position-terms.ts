import type { PositionRow } from '@paper/exchange-data';
import { px, usd } from '../money/money-format';

/** The terms of a stored position as every tool shows them (USDC and market prices as numbers). */
export function positionTerms(p: PositionRow) {
  return {
    positionId: p.id,
    market: p.market,
    side: p.side,
    leverage: p.leverage,
    marginUsd: usd(p.marginMicro),
    entryPrice: px(p.entryPrice, p.market),
  };
}

/** How a settled (closed or liquidated) position ended, as the tools show it. */
export function settlementTerms(p: PositionRow) {
  return {
    exitPrice: px(p.exitPrice ?? 0n, p.market),
    pnlUsd: usd(p.pnlMicro ?? 0n),
    status: p.status === 'liquidated' ? ('liquidated' as const) : ('closed' as const),
    closedAt: p.closedAt ?? p.openedAt,
  };
}

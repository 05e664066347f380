import type { ClosedPositionResult } from '@paper/contracts';
import { marketConfig, microToUsdc, type PositionAccounting, scaledToPrice } from '@paper/exchange';
import type { PositionRow } from '@paper/exchange-data';

/** How a close intent reports one of its positions: settled now, or found already closed or liquidated. */
export function describeClosed(
  r: PositionRow,
  s: { acc: PositionAccounting; exit: bigint } | undefined,
): ClosedPositionResult {
  const d = marketConfig(r.market).priceDecimals;
  const base = {
    positionId: r.id,
    market: r.market,
    side: r.side,
    entryPrice: scaledToPrice(r.entryPrice, d),
  };
  if (s) {
    return {
      ...base,
      // A position the mid had already taken past its bust price was liquidated by this close.
      outcome: s.acc.outcome === 'liquidated' ? 'already_liquidated' : 'closed',
      exitPrice: scaledToPrice(s.exit, d),
      pnlUsd: microToUsdc(s.acc.pnlMicro),
      feeUsd: microToUsdc(s.acc.feeMicro),
      paidUsd: microToUsdc(s.acc.paidMicro),
      queuedUsd: microToUsdc(s.acc.queuedPayoutMicro),
      rewardMinted: microToUsdc(s.acc.rewardMintedMicro),
    };
  }
  return {
    ...base,
    outcome: r.status === 'liquidated' ? 'already_liquidated' : 'already_closed',
    exitPrice: r.exitPrice === null ? null : scaledToPrice(r.exitPrice, d),
    pnlUsd: r.pnlMicro === null ? null : microToUsdc(r.pnlMicro),
    feeUsd: microToUsdc(r.feeMicro),
    paidUsd: null,
    queuedUsd: microToUsdc(r.queuedMicro),
    rewardMinted: microToUsdc(r.rewardMintedMicro),
  };
}

/** The close intent's message: what closed at which price, what was liquidated, what was already over. */
export function closeSummary(closed: readonly ClosedPositionResult[], liquidatedNow: ReadonlySet<string>): string {
  const done = closed.filter((c) => c.outcome === 'closed');
  const liquidated = closed.filter((c) => liquidatedNow.has(c.positionId));
  const already = closed.length - done.length - liquidated.length;
  const parts = done.map(
    (c) =>
      `#${c.positionId} at ${c.exitPrice} (PnL ${c.pnlUsd} ` +
      `USDC${c.queuedUsd && c.queuedUsd !== '0' ? `, ${c.queuedUsd} queued` : ''})`,
  );
  const texts = [
    done.length > 0 ? `Closed ${parts.join(', ')}.` : liquidated.length > 0 ? '' : 'No position was open.',
  ];
  if (liquidated.length > 0) {
    texts.push(
      `${liquidated.map((c) => `#${c.positionId}`).join(', ')} had reached the liquidation price and ` +
        `${liquidated.length === 1 ? 'was' : 'were'} liquidated at ` +
        `${liquidated.map((c) => c.exitPrice).join(', ')}: the whole margin is lost (PnL ` +
        `${liquidated.map((c) => `${c.pnlUsd} USDC`).join(', ')}).`,
    );
  }
  if (already > 0) texts.push(`${already} position(s) were already closed or liquidated.`);
  return texts.filter(Boolean).join(' ');
}

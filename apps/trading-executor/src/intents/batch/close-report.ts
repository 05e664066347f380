import type { ClosedPositionResult } from '@paper/contracts';
import { marketConfig, microToUsdc, type PositionAccounting, scaledToPrice } from '@paper/exchange';
import type { BatchPosition } from './batch-state';

/** How a close intent reports one of its positions: settled now, or found already closed or liquidated. */
export function describeClosed(
  r: BatchPosition,
  s: { acc: PositionAccounting; exit: bigint } | undefined,
): ClosedPositionResult {
  const d = marketConfig(r.market).priceDecimals;
  const base = {
    positionId: r.id,
    market: r.market,
    side: r.side,
    entryPrice: scaledToPrice(BigInt(r.entry_price), d),
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
    exitPrice: r.exit_price === null ? null : scaledToPrice(BigInt(r.exit_price), d),
    pnlUsd: r.pnl_micro === null ? null : microToUsdc(BigInt(r.pnl_micro)),
    feeUsd: microToUsdc(BigInt(r.fee_micro)),
    paidUsd: null,
    queuedUsd: microToUsdc(BigInt(r.queued_micro)),
    rewardMinted: microToUsdc(BigInt(r.reward_minted_micro)),
  };
}

/** The close intent's message: what closed at which price, what was liquidated, what was already over. */
export function closeSummary(closed: readonly ClosedPositionResult[], liquidatedNow: ReadonlySet<string>): string {
  const done = closed.filter((c) => c.outcome === 'closed');
  const liquidated = closed.filter((c) => liquidatedNow.has(c.positionId));
  const already = closed.length - done.length - liquidated.length;
  const parts = done.map(
    (c) =>
      `#${c.positionId} at ${c.exitPrice} (PnL ${c.pnlUsd} USDC${c.queuedUsd && c.queuedUsd !== '0' ? `, ${c.queuedUsd} queued` : ''})`,
  );
  const texts = [
    done.length > 0 ? `Closed ${parts.join(', ')}.` : liquidated.length > 0 ? '' : 'No position was open.',
  ];
  if (liquidated.length > 0) {
    texts.push(
      `${liquidated.map((c) => `#${c.positionId}`).join(', ')} had reached the liquidation price and ${liquidated.length === 1 ? 'was' : 'were'} liquidated at ` +
        `${liquidated.map((c) => c.exitPrice).join(', ')}: the whole margin is lost (PnL ${liquidated.map((c) => `${c.pnlUsd} USDC`).join(', ')}).`,
    );
  }
  if (already > 0) texts.push(`${already} position(s) were already closed or liquidated.`);
  return texts.filter(Boolean).join(' ');
}

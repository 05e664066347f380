import { closeAccounting, type Market, marketConfig, type PositionAccounting, addDelta } from '@paper/exchange';
import { settlingPosition } from '@paper/exchange-data';
import { type IntentOutcome, refused } from '../intent-message';
import type { AdmittedIntent, BatchState, ClosePayload } from './batch-state';
import { closeSummary, describeClosed } from './close-report';
import { PRICE_UNAVAILABLE_MESSAGE } from './open-step';

/** The distinct position ids a close intent lists (as decimal strings). */
export function closeIds(payload: ClosePayload): string[] {
  return [...new Set(payload.message.positionIds.map((id) => BigInt(id).toString()))];
}

/**
 * Closes up to 12 positions of the wallet at the batch's mid, in memory (the positions and the pool are
 * locked by the batch). Every id must belong to the wallet; ids already closed or liquidated (earlier in
 * the batch too) are reported, not failed. How each position settles is decided by `closeAccounting`:
 * one whose bust price the mid has reached is liquidated, never closed for less.
 */
export function closeStep(state: BatchState, intent: AdmittedIntent<ClosePayload>): IntentOutcome {
  const ids = closeIds(intent.payload);
  const rows = ids.map((id) => state.positions.get(id)).filter((r) => r !== undefined && r.wallet === intent.wallet);
  if (rows.length < ids.length) {
    const found = new Set(rows.map((r) => r!.id));
    const missing = ids.filter((id) => !found.has(id));
    return refused(
      'position_not_found',
      `Position ${missing.map((id) => `#${id}`).join(', ')} does not exist or belongs to another wallet; nothing ` +
        `was closed. Check the ids with get_account.`,
    );
  }
  const positions = rows.map((r) => r!);
  const open = positions.filter((r) => r.status === 'open');
  for (const market of new Set<Market>(open.map((r) => r.market))) {
    if (state.markets.get(market)!.config.status === 'paused') {
      return refused(
        'market_paused',
        `The ${market} market is paused, so its positions cannot be closed right now; try again later.`,
      );
    }
    if (!state.prices.get(market)) return refused('price_unavailable', PRICE_UNAVAILABLE_MESSAGE(market));
  }

  const settled = new Map<string, { acc: PositionAccounting; exit: bigint }>();
  const account = state.accounts.get(intent.wallet)!;
  let claimsCancelled = 0n;
  for (const r of open) {
    const exit = state.prices.get(r.market)!.mid;
    const acc = closeAccounting({
      position: settlingPosition(r),
      exit,
      config: marketConfig(r.market),
      pool: state.pool!,
    });
    state.pool = { ...state.pool!, ...acc.pool };
    settled.set(r.id, { acc, exit });
    const liquidated = acc.outcome === 'liquidated';
    account.delta = addDelta(account.delta, acc.account);
    account.freeMicro += acc.account.freeMicro;
    account.queuedMicro += acc.account.queuedMicro;
    account.openPositions -= 1;
    state.ledger.push({ lines: acc.lines, reason: liquidated ? 'liquidation' : 'close', ref: r.id });
    state.feesCollectedMicro += acc.feeCollectedMicro;
    state.paperMintedMicro += acc.rewardMintedMicro;
    claimsCancelled += acc.queueClaimCancelledMicro;
    const m = state.markets.get(r.market)!;
    if (r.side === 'long') m.longDeltaMicro -= r.notionalMicro;
    else m.shortDeltaMicro -= r.notionalMicro;
    state.settled.push({
      id: r.id,
      status: liquidated ? 'liquidated' : 'closed',
      exit,
      pnlMicro: acc.pnlMicro,
      feeMicro: acc.feeMicro,
      queuedMicro: acc.queuedPayoutMicro,
      rewardMintedMicro: acc.rewardMintedMicro,
      intentId: intent.id,
    });
    state.queueOps.push({
      kind: 'append',
      wallet: intent.wallet,
      positionId: r.id,
      amountMicro: acc.queuedPayoutMicro,
      feeMicro: acc.feeQueuedMicro,
    });
  }
  if (claimsCancelled > 0n)
    state.queueOps.push({ kind: 'cancel-own', wallet: intent.wallet, amountMicro: claimsCancelled });

  const closed = positions.map((r) => describeClosed(r, settled.get(r.id)));
  for (const [id, s] of settled) {
    // Later closes of the batch find it settled, as they would after this intent's commit.
    Object.assign(state.positions.get(id)!, {
      status: s.acc.outcome === 'liquidated' ? 'liquidated' : 'closed',
      exitPrice: s.exit,
      pnlMicro: s.acc.pnlMicro,
      feeMicro: s.acc.feeMicro,
      queuedMicro: s.acc.queuedPayoutMicro,
      rewardMintedMicro: s.acc.rewardMintedMicro,
    });
  }
  const liquidatedNow = new Set([...settled].filter(([, s]) => s.acc.outcome === 'liquidated').map(([id]) => id));
  return { status: 'executed', reason: null, message: closeSummary(closed, liquidatedNow), closed };
}

import type { ClosedPositionResult, SignedIntentPayload } from '@paper/contracts';
import { type AccountDelta, closeAccounting, type Market, marketConfig, microToUsdc, type PositionAccounting, scaledToPrice, type Side } from '@paper/exchange';
import { addDelta, applyAccountDeltas } from '../database/account-balances';
import { type LedgerTx, writeLedger } from '../database/ledger-writer';
import { appendPayout, cancelOwnClaims } from '../database/payout-claims';
import { lockPool, savePool } from '../database/protocol-pool';
import { settlingPosition } from '../database/settling-position';
import type { Sql } from '../database/sql-transaction';
import type { FreshPrice, PriceBook } from '../prices/price-book.service';
import { type IntentOutcome, refused } from './intent-message';
import { PRICE_UNAVAILABLE_MESSAGE } from './open-position.handler';

type ClosePayload = Extract<SignedIntentPayload, { kind: 'close' }>;

interface PositionRow {
  id: string;
  wallet: string;
  market: Market;
  side: Side;
  margin_micro: string;
  leverage: number;
  notional_micro: string;
  entry_price: string;
  bust_price: string;
  margin_queued_micro: string;
  status: 'open' | 'closed' | 'liquidated';
  exit_price: string | null;
  pnl_micro: string | null;
  fee_micro: string;
  queued_micro: string;
  reward_minted_micro: string;
}

/**
 * Closes up to 12 positions of the wallet at the current mid inside the caller's transaction (account
 * locked). Every id must belong to the wallet; ids already closed or liquidated are reported, not failed.
 * How each position settles is decided by `closeAccounting`: one whose bust price the mid has reached
 * is liquidated (whole margin lost, PAPER minted, recorded as liquidated), never closed for less.
 */
export async function closePositions(sql: Sql, payload: ClosePayload, wallet: string, prices: PriceBook): Promise<IntentOutcome> {
  const ids = [...new Set(payload.message.positionIds.map((id) => BigInt(id).toString()))];
  const { rows } = await sql<PositionRow>(
    `SELECT id, wallet, market, side, margin_micro, leverage, notional_micro, entry_price, bust_price, margin_queued_micro, status,
            exit_price, pnl_micro, fee_micro, queued_micro, reward_minted_micro
       FROM exchange.positions WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  const found = new Set(rows.filter((r) => r.wallet === wallet).map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    return refused('position_not_found', `Position ${missing.map((id) => `#${id}`).join(', ')} does not exist or belongs to another wallet; nothing was closed. Check the ids with get_account.`);
  }
  const open = rows.filter((r) => r.status === 'open');
  const marks = new Map<Market, FreshPrice>();
  for (const market of new Set(open.map((r) => r.market))) {
    const { rows: m } = await sql<{ status: string }>(`SELECT status FROM exchange.markets WHERE market = $1`, [market]);
    if (m[0]?.status === 'paused') return refused('market_paused', `The ${market} market is paused, so its positions cannot be closed right now; try again later.`);
    const price = await prices.fresh(market);
    if (!price) return refused('price_unavailable', PRICE_UNAVAILABLE_MESSAGE(market));
    marks.set(market, price);
  }

  const settled = new Map<string, { acc: PositionAccounting; exit: bigint }>();
  if (open.length > 0) {
    let pool = await lockPool(sql);
    let delta: AccountDelta | undefined;
    const txs: LedgerTx[] = [];
    let fees = 0n;
    let minted = 0n;
    let claimsCancelled = 0n;
    const oi = new Map<string, bigint>();
    for (const r of open) {
      const exit = marks.get(r.market)!.mid;
      const acc = closeAccounting({
        position: settlingPosition(r),
        exit,
        config: marketConfig(r.market),
        pool,
      });
      pool = { ...pool, ...acc.pool };
      settled.set(r.id, { acc, exit });
      delta = addDelta(delta, acc.account);
      const liquidated = acc.outcome === 'liquidated';
      txs.push({ lines: acc.lines, reason: liquidated ? 'liquidation' : 'close', ref: r.id });
      fees += acc.feeCollectedMicro;
      minted += acc.rewardMintedMicro;
      claimsCancelled += acc.queueClaimCancelledMicro;
      oi.set(`${r.market}:${r.side}`, (oi.get(`${r.market}:${r.side}`) ?? 0n) + BigInt(r.notional_micro));
      await sql(
        `UPDATE exchange.positions SET status = $8, exit_price = $2, pnl_micro = $3, fee_micro = $4, queued_micro = $5,
                reward_minted_micro = $6, margin_queued_micro = 0, close_intent_id = $7, closed_at = now() WHERE id = $1`,
        [r.id, exit, acc.pnlMicro, acc.feeMicro, acc.queuedPayoutMicro, acc.rewardMintedMicro, payload.intentId.toLowerCase(), liquidated ? 'liquidated' : 'closed'],
      );
      await appendPayout(sql, wallet, r.id, acc.queuedPayoutMicro, acc.feeQueuedMicro);
    }
    await cancelOwnClaims(sql, wallet, claimsCancelled);
    await writeLedger(sql, txs);
    await applyAccountDeltas(sql, new Map([[wallet, delta!]]));
    await savePool(sql, pool, { feesCollectedMicro: fees, paperMintedMicro: minted });
    for (const [key, notional] of oi) {
      const [market, side] = key.split(':');
      await sql(`UPDATE exchange.markets SET ${side === 'long' ? 'long_oi_micro = long_oi_micro' : 'short_oi_micro = short_oi_micro'} - $2 WHERE market = $1`, [market, notional]);
    }
  }

  const closed = rows.map((r) => describe(r, settled.get(r.id)));
  const liquidatedNow = new Set([...settled].filter(([, s]) => s.acc.outcome === 'liquidated').map(([id]) => id));
  return { status: 'executed', reason: null, message: summary(closed, liquidatedNow), closed };
}

function describe(r: PositionRow, s: { acc: PositionAccounting; exit: bigint } | undefined): ClosedPositionResult {
  const d = marketConfig(r.market).priceDecimals;
  const base = { positionId: r.id, market: r.market, side: r.side, entryPrice: scaledToPrice(BigInt(r.entry_price), d) };
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

function summary(closed: readonly ClosedPositionResult[], liquidatedNow: ReadonlySet<string>): string {
  const done = closed.filter((c) => c.outcome === 'closed');
  const liquidated = closed.filter((c) => liquidatedNow.has(c.positionId));
  const already = closed.length - done.length - liquidated.length;
  const parts = done.map((c) => `#${c.positionId} at ${c.exitPrice} (PnL ${c.pnlUsd} USDC${c.queuedUsd && c.queuedUsd !== '0' ? `, ${c.queuedUsd} queued` : ''})`);
  const texts = [done.length > 0 ? `Closed ${parts.join(', ')}.` : liquidated.length > 0 ? '' : 'No position was open.'];
  if (liquidated.length > 0) {
    texts.push(
      `${liquidated.map((c) => `#${c.positionId}`).join(', ')} had reached the liquidation price and ${liquidated.length === 1 ? 'was' : 'were'} liquidated at ` +
        `${liquidated.map((c) => c.exitPrice).join(', ')}: the whole margin is lost (PnL ${liquidated.map((c) => `${c.pnlUsd} USDC`).join(', ')}).`,
    );
  }
  if (already > 0) texts.push(`${already} position(s) were already closed or liquidated.`);
  return texts.filter(Boolean).join(' ');
}

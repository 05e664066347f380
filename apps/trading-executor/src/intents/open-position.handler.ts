import type { SignedIntentPayload } from '@paper/contracts';
import { bustPrice, checkOpen, type Guardrails, marketConfig, type MarketStatus, microToUsdc, openAccounting, scaledToPrice } from '@paper/exchange';
import type { LockedAccount } from '../database/account-balances';
import { writeLedger } from '../database/ledger-writer';
import type { Sql } from '../database/sql-transaction';
import type { PriceBook } from '../prices/price-book.service';
import { type IntentOutcome, refused } from './intent-message';

type OpenPayload = Extract<SignedIntentPayload, { kind: 'open' }>;

interface MarketRow {
  status: MarketStatus;
  long_oi_cap_micro: string | null;
  short_oi_cap_micro: string | null;
  long_oi_micro: string;
  short_oi_micro: string;
}

export const PRICE_UNAVAILABLE_MESSAGE = (market: string) =>
  `No recent ${market} price is available from the venue, so nothing was executed; try again in a few seconds.`;

/**
 * Opens a position at the current mid inside the caller's transaction (the account row is locked):
 * checks limits, balance and guardrails, locks the margin, creates the position, updates open interest.
 */
export async function openPosition(sql: Sql, payload: OpenPayload, account: LockedAccount, guardrails: Guardrails, prices: PriceBook): Promise<IntentOutcome> {
  const { market, side, leverage } = payload.message;
  const marginMicro = BigInt(payload.message.marginMicro);
  const price = await prices.fresh(market);
  if (!price) return refused('price_unavailable', PRICE_UNAVAILABLE_MESSAGE(market));

  const read = `SELECT status, long_oi_cap_micro, short_oi_cap_micro, long_oi_micro, short_oi_micro FROM exchange.markets WHERE market = $1`;
  let row = (await sql<MarketRow>(read, [market])).rows[0]!;
  const capped = (side === 'long' ? row.long_oi_cap_micro : row.short_oi_cap_micro) !== null;
  if (capped) row = (await sql<MarketRow>(`${read} FOR UPDATE`, [market])).rows[0]!; // the cap check must see every concurrent open
  const config = marketConfig(market, {
    status: row.status,
    longOpenInterestCapMicro: row.long_oi_cap_micro === null ? null : BigInt(row.long_oi_cap_micro),
    shortOpenInterestCapMicro: row.short_oi_cap_micro === null ? null : BigInt(row.short_oi_cap_micro),
  });
  const { rows: protocol } = await sql<{ trading_enabled: boolean }>(`SELECT trading_enabled FROM exchange.protocol_state WHERE id = 1`);
  const wallet = account.wallet;
  const check = checkOpen({
    market,
    side,
    marginMicro,
    leverage,
    config,
    tradingEnabled: protocol[0]!.trading_enabled,
    availableBalanceMicro: account.freeMicro + account.queuedMicro,
    sideOpenInterestMicro: BigInt(side === 'long' ? row.long_oi_micro : row.short_oi_micro),
    guardrails,
    dailyNotionalUsedMicro: guardrails.maxDailyNotionalUsd === null ? 0n : await dailyNotional(sql, wallet),
    openPositionCount: guardrails.maxOpenPositions === null ? 0 : await openCount(sql, wallet),
  });
  if (!check.ok) return refused(check.reason, check.message);

  const entry = price.mid;
  const bust = bustPrice(side, entry, leverage, config.bustBuffer);
  const lock = openAccounting(wallet, account.freeMicro, account.queuedMicro, marginMicro);
  const { rows } = await sql<{ id: string }>(
    `INSERT INTO exchange.positions (wallet, market, side, margin_micro, leverage, notional_micro, entry_price, bust_price, status, margin_queued_micro, open_intent_id, opened_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10, now()) RETURNING id`,
    [wallet, market, side, marginMicro, leverage, check.notionalMicro, entry, bust, lock.fromQueuedMicro, payload.intentId.toLowerCase()],
  );
  const positionId = rows[0]!.id;
  await writeLedger(sql, [{ lines: lock.lines, reason: 'open', ref: positionId }]);
  await sql(
    `UPDATE exchange.accounts SET free_micro = free_micro - $2, queued_micro = queued_micro - $3, locked_micro = locked_micro + $4,
            total_volume_micro = total_volume_micro + $5, last_active_at = now() WHERE wallet = $1`,
    [wallet, lock.fromFreeMicro, lock.fromQueuedMicro, marginMicro, check.notionalMicro],
  );
  await sql(`UPDATE exchange.markets SET ${side === 'long' ? 'long_oi_micro = long_oi_micro' : 'short_oi_micro = short_oi_micro'} + $2 WHERE market = $1`, [
    market,
    check.notionalMicro,
  ]);
  const d = config.priceDecimals;
  return {
    status: 'executed',
    reason: null,
    message: `Opened ${side} ${market} #${positionId}: ${microToUsdc(marginMicro)} USDC margin at ${leverage}x, entry ${scaledToPrice(entry, d)}, liquidation at ${scaledToPrice(bust, d)}.`,
    opened: {
      positionId,
      market,
      side,
      marginUsd: microToUsdc(marginMicro),
      leverage,
      notionalUsd: microToUsdc(check.notionalMicro),
      entryPrice: scaledToPrice(entry, d),
      bustPrice: scaledToPrice(bust, d),
      marginFromQueuedUsd: microToUsdc(lock.fromQueuedMicro),
    },
  };
}

/** Notional this wallet opened since midnight UTC (the daily guardrail). */
async function dailyNotional(sql: Sql, wallet: string): Promise<bigint> {
  const { rows } = await sql<{ total: string }>(
    `SELECT coalesce(sum(notional_micro), 0) AS total FROM exchange.positions
      WHERE wallet = $1 AND opened_at >= (date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`,
    [wallet],
  );
  return BigInt(rows[0]!.total);
}

async function openCount(sql: Sql, wallet: string): Promise<number> {
  const { rows } = await sql<{ n: string }>(`SELECT count(*) AS n FROM exchange.positions WHERE wallet = $1 AND status = 'open'`, [wallet]);
  return Number(rows[0]!.n);
}

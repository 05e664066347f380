import type { Market, SettlingPosition, Side } from '@paper/exchange';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { IdRow, int4, int8, market, positionStatus, side, timestamp } from './row-fields';

/**
 * A position as stored in exchange.positions (money in micro-USDC, prices in the market's units): what the
 * tools read, and what the executor settles once it holds the row lock.
 */
export interface PositionRow {
  id: string;
  wallet: string;
  market: Market;
  side: Side;
  marginMicro: bigint;
  leverage: number;
  notionalMicro: bigint;
  entryPrice: bigint;
  bustPrice: bigint;
  /** Margin backed by the trader's queued winnings (open positions). */
  marginQueuedMicro: bigint;
  status: 'open' | 'closed' | 'liquidated';
  exitPrice: bigint | null;
  pnlMicro: bigint | null;
  feeMicro: bigint;
  queuedMicro: bigint;
  rewardMintedMicro: bigint;
  openedAt: string;
  closedAt: string | null;
}

/** An `exchange.positions` row as node-postgres returns it (bigints as strings). */
export const RawPositionRow = z.object({
  id: int8,
  wallet: z.string(),
  market,
  side,
  margin_micro: int8,
  leverage: int4,
  notional_micro: int8,
  entry_price: int8,
  bust_price: int8,
  margin_queued_micro: int8,
  status: positionStatus,
  exit_price: int8.nullable(),
  pnl_micro: int8.nullable(),
  fee_micro: int8,
  queued_micro: int8,
  reward_minted_micro: int8,
  opened_at: timestamp,
  closed_at: timestamp.nullable(),
});
type RawPositionRow = z.infer<typeof RawPositionRow>;

export const PositionBustRow = z.object({ side, bust_price: int8, notional_micro: int8 });
export type PositionBustRow = z.infer<typeof PositionBustRow>;

export const PositionStatusRow = z.object({ id: int8, status: positionStatus });
export type PositionStatusRow = z.infer<typeof PositionStatusRow>;

export const TradeEventDbRow = z.object({
  type: z.enum(['open', 'close', 'liquidation']),
  id: int8,
  wallet: z.string(),
  market,
  side,
  leverage: int4,
  margin_micro: int8,
  notional_micro: int8,
  price: int8.nullable(),
  pnl: int8.nullable(),
  at: timestamp,
});
export type TradeEventDbRow = z.infer<typeof TradeEventDbRow>;

const COLUMNS = `id::text AS id, wallet, market, side, margin_micro, leverage, notional_micro, entry_price, bust_price,
  margin_queued_micro, status, exit_price, pnl_micro, fee_micro, queued_micro, reward_minted_micro, opened_at,
  closed_at`;

function toPositionRow(raw: RawPositionRow): PositionRow {
  return {
    id: raw.id,
    wallet: raw.wallet,
    market: raw.market,
    side: raw.side,
    marginMicro: BigInt(raw.margin_micro),
    leverage: Number(raw.leverage),
    notionalMicro: BigInt(raw.notional_micro),
    entryPrice: BigInt(raw.entry_price),
    bustPrice: BigInt(raw.bust_price),
    marginQueuedMicro: BigInt(raw.margin_queued_micro),
    status: raw.status,
    exitPrice: raw.exit_price === null ? null : BigInt(raw.exit_price),
    pnlMicro: raw.pnl_micro === null ? null : BigInt(raw.pnl_micro),
    feeMicro: BigInt(raw.fee_micro),
    queuedMicro: BigInt(raw.queued_micro),
    rewardMintedMicro: BigInt(raw.reward_minted_micro),
    openedAt: raw.opened_at.toISOString(),
    closedAt: raw.closed_at ? raw.closed_at.toISOString() : null,
  };
}

const positions = async (db: QueryExecutor, where: string, params: unknown[]): Promise<PositionRow[]> =>
  (await queryRows<RawPositionRow>(db, `SELECT ${COLUMNS} FROM exchange.positions ${where}`, params)).map(
    toPositionRow,
  );

/** Locks the positions of these ids that belong to these wallets (a batch's closes), by id. */
export function lockPositionsOf(
  db: QueryExecutor,
  ids: readonly string[],
  wallets: readonly string[],
): Promise<PositionRow[]> {
  return positions(
    db,
    `WHERE id = ANY($1::bigint[]) AND wallet = ANY($2::varchar[]) ORDER BY positions.id FOR UPDATE`,
    [ids, wallets],
  );
}

/** Locks those of these positions that are still open (the caller holds their accounts' locks), by id. */
export function lockOpenPositions(db: QueryExecutor, ids: readonly string[]): Promise<PositionRow[]> {
  return positions(db, `WHERE id = ANY($1::bigint[]) AND status = 'open' ORDER BY positions.id FOR UPDATE`, [ids]);
}

/** A stored open position as the exchange's settlement formulas take it. */
export function settlingPosition(p: PositionRow): SettlingPosition {
  return {
    wallet: p.wallet,
    side: p.side,
    entryPrice: p.entryPrice,
    marginMicro: p.marginMicro,
    leverage: p.leverage,
    marginQueuedMicro: p.marginQueuedMicro,
    bustPrice: p.bustPrice,
  };
}

/** Open positions, all or one wallet's, by id. */
export function openPositionRows(db: QueryExecutor, wallet?: string): Promise<PositionRow[]> {
  return wallet
    ? positions(db, `WHERE status = 'open' AND wallet = $1 ORDER BY id`, [wallet])
    : positions(db, `WHERE status = 'open' ORDER BY id`, []);
}

/** A wallet's closed and liquidated positions, newest first, at most `limit`. */
export function settledPositionRows(db: QueryExecutor, wallet: string, limit: number): Promise<PositionRow[]> {
  return positions(
    db,
    `WHERE wallet = $1 AND status IN ('closed', 'liquidated') ORDER BY closed_at DESC, id DESC LIMIT $2`,
    [wallet, limit],
  );
}

/** The most profitable positions closed since `since`, best first, at most `limit`. */
export function topProfitablePositionRows(db: QueryExecutor, since: Date, limit: number): Promise<PositionRow[]> {
  return positions(
    db,
    `WHERE status IN ('closed', 'liquidated') AND closed_at >= $1 AND pnl_micro > 0 ORDER BY pnl_micro DESC, ` +
      `closed_at DESC LIMIT $2`,
    [since, limit],
  );
}

/** Where a market's open positions go bust, and how much notional each carries (the liquidation map). */
export async function openPositionBusts(
  db: QueryExecutor,
  market: Market,
): Promise<{ side: Side; bustPrice: bigint; notionalMicro: bigint }[]> {
  const rows = await queryRows<PositionBustRow>(
    db,
    `SELECT side, bust_price, notional_micro FROM exchange.positions WHERE status = 'open' AND market = $1`,
    [market],
  );
  return rows.map((r) => ({ side: r.side, bustPrice: BigInt(r.bust_price), notionalMicro: BigInt(r.notional_micro) }));
}

/** Ids of a wallet's open positions (of one market, or all), oldest first. */
export async function openPositionIds(db: QueryExecutor, wallet: string, market?: Market): Promise<string[]> {
  const rows = await queryRows<IdRow>(
    db,
    `SELECT id::text AS id FROM exchange.positions WHERE wallet = $1 AND status = 'open' AND ($2::text IS NULL
       OR market = $2) ORDER BY id`,
    [wallet, market ?? null],
  );
  return rows.map((r) => r.id);
}

/** The status of each of these positions that belongs to the wallet (others are left out). */
export async function positionStatuses(
  db: QueryExecutor,
  wallet: string,
  ids: readonly string[],
): Promise<Map<string, PositionRow['status']>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<PositionStatusRow>(
    db,
    `SELECT id::text AS id, status FROM exchange.positions WHERE wallet = $1 AND id = ANY($2::bigint[])`,
    [wallet, ids],
  );
  return new Map(rows.map((r) => [r.id, r.status]));
}

/** One trade event: a position opened, closed or liquidated. */
export interface TradeEventRow {
  type: 'open' | 'close' | 'liquidation';
  positionId: string;
  wallet: string;
  market: Market;
  side: Side;
  leverage: number;
  marginMicro: bigint;
  notionalMicro: bigint;
  /** Entry price for an open, exit price otherwise. */
  price: bigint;
  pnlMicro: bigint | null;
  at: Date;
}

/** The latest trade events (of one market and/or wallet), newest first, at most `limit`. */
export async function recentTradeEvents(
  db: QueryExecutor,
  filter: { market: Market | null; wallet: string | null },
  limit: number,
): Promise<TradeEventRow[]> {
  const rows = await queryRows<TradeEventDbRow>(
    db,
    `WITH p AS (
       SELECT id, wallet, market, side, leverage, margin_micro, notional_micro, entry_price, exit_price, pnl_micro,
         status, opened_at, closed_at
         FROM exchange.positions WHERE ($1::text IS NULL OR market = $1) AND ($2::text IS NULL OR wallet = $2))
     SELECT * FROM (
       SELECT 'open' AS type, id::text AS id, wallet, market, side, leverage, margin_micro, notional_micro,
         entry_price AS price,
              NULL::bigint AS pnl, opened_at AS at FROM p
       UNION ALL
       SELECT CASE WHEN status = 'liquidated' THEN 'liquidation' ELSE 'close' END, id::text, wallet, market, side,
         leverage, margin_micro,
              notional_micro, exit_price, pnl_micro, closed_at FROM p WHERE closed_at IS NOT NULL
     ) events ORDER BY at DESC, id DESC LIMIT $3`,
    [filter.market, filter.wallet, limit],
  );
  return rows.map((r) => ({
    type: r.type,
    positionId: r.id,
    wallet: r.wallet,
    market: r.market,
    side: r.side,
    leverage: Number(r.leverage),
    marginMicro: BigInt(r.margin_micro),
    notionalMicro: BigInt(r.notional_micro),
    price: r.price === null ? 0n : BigInt(r.price),
    pnlMicro: r.pnl === null ? null : BigInt(r.pnl),
    at: r.at,
  }));
}

/** The open positions of these wallets. */
export async function openPositionsOfWallets(db: QueryExecutor, wallets: readonly string[]): Promise<PositionRow[]> {
  return wallets.length === 0 ? [] : positions(db, `WHERE status = 'open' AND wallet = ANY($1::varchar[])`, [wallets]);
}

import type { Market, Side } from '@paper/exchange';
import { type QueryExecutor, queryRows } from './chain-balances';

/** A position as the tools read it from exchange.positions (money in micro-USDC, prices in the market's units). */
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
  status: 'open' | 'closed' | 'liquidated';
  exitPrice: bigint | null;
  pnlMicro: bigint | null;
  feeMicro: bigint;
  queuedMicro: bigint;
  rewardMintedMicro: bigint;
  openedAt: string;
  closedAt: string | null;
}

interface RawPositionRow {
  id: string;
  wallet: string;
  market: Market;
  side: Side;
  margin_micro: string;
  leverage: number;
  notional_micro: string;
  entry_price: string;
  bust_price: string;
  status: PositionRow['status'];
  exit_price: string | null;
  pnl_micro: string | null;
  fee_micro: string;
  queued_micro: string;
  reward_minted_micro: string;
  opened_at: Date;
  closed_at: Date | null;
}

const COLUMNS = `id::text AS id, wallet, market, side, margin_micro, leverage, notional_micro, entry_price, bust_price,
  status, exit_price, pnl_micro, fee_micro, queued_micro, reward_minted_micro, opened_at, closed_at`;

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
  (await queryRows<RawPositionRow>(db, `SELECT ${COLUMNS} FROM exchange.positions ${where}`, params)).map(toPositionRow);

/** Open positions, all or one wallet's, by id. */
export function openPositionRows(db: QueryExecutor, wallet?: string): Promise<PositionRow[]> {
  return wallet ? positions(db, `WHERE status = 'open' AND wallet = $1 ORDER BY id`, [wallet]) : positions(db, `WHERE status = 'open' ORDER BY id`, []);
}

/** A wallet's closed and liquidated positions, newest first, at most `limit`. */
export function settledPositionRows(db: QueryExecutor, wallet: string, limit: number): Promise<PositionRow[]> {
  return positions(db, `WHERE wallet = $1 AND status IN ('closed', 'liquidated') ORDER BY closed_at DESC, id DESC LIMIT $2`, [wallet, limit]);
}

/** The most profitable positions closed since `since`, best first, at most `limit`. */
export function topProfitablePositionRows(db: QueryExecutor, since: Date, limit: number): Promise<PositionRow[]> {
  return positions(db, `WHERE status IN ('closed', 'liquidated') AND closed_at >= $1 AND pnl_micro > 0 ORDER BY pnl_micro DESC, closed_at DESC LIMIT $2`, [since, limit]);
}

/** Where a market's open positions go bust, and how much notional each carries (the liquidation map). */
export async function openPositionBusts(db: QueryExecutor, market: Market): Promise<{ side: Side; bustPrice: bigint; notionalMicro: bigint }[]> {
  const rows = await queryRows<{ side: Side; bust_price: string; notional_micro: string }>(
    db,
    `SELECT side, bust_price, notional_micro FROM exchange.positions WHERE status = 'open' AND market = $1`,
    [market],
  );
  return rows.map((r) => ({ side: r.side, bustPrice: BigInt(r.bust_price), notionalMicro: BigInt(r.notional_micro) }));
}

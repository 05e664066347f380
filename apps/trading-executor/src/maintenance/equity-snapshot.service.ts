import { Injectable, Logger } from '@nestjs/common';
import { type Market, MARKETS, marketConfig, outcomeAtExit, type Side } from '@paper/exchange';
import { DataSource } from 'typeorm';
import { PriceBook } from '../prices/price-book.service';

/** Accounts with open positions, or active in this window, get an equity snapshot. */
const ACTIVE_WINDOW = '7 days';

/**
 * Snapshots equity = free + locked + queued + unrealized PnL at the mark (the settled PnL a close at
 * the mark would give, win curve and fee included, and -margin at or past the bust price, as
 * `outcomeAtExit` decides) for active accounts, once per minute (idempotent).
 */
@Injectable()
export class EquitySnapshotService {
  private readonly logger = new Logger('EquitySnapshots');

  constructor(
    private readonly dataSource: DataSource,
    private readonly prices: PriceBook,
  ) {}

  async snapshot(): Promise<number> {
    const marks = new Map<Market, bigint>();
    for (const market of MARKETS) {
      const price = await this.prices.fresh(market);
      if (price) marks.set(market, price.mid);
    }
    const accounts = (await this.dataSource.query(
      `SELECT wallet, free_micro, locked_micro, queued_micro FROM exchange.accounts a
        WHERE last_active_at > now() - interval '${ACTIVE_WINDOW}'
           OR EXISTS (SELECT 1 FROM exchange.positions p WHERE p.wallet = a.wallet AND p.status = 'open')`,
    )) as Array<{ wallet: string; free_micro: string; locked_micro: string; queued_micro: string }>;
    if (accounts.length === 0) return 0;
    const positions = (await this.dataSource.query(
      `SELECT wallet, market, side, margin_micro, leverage, entry_price, bust_price FROM exchange.positions WHERE status = 'open' AND wallet = ANY($1::varchar[])`,
      [accounts.map((a) => a.wallet)],
    )) as Array<{ wallet: string; market: Market; side: Side; margin_micro: string; leverage: number; entry_price: string; bust_price: string }>;
    const unrealized = new Map<string, bigint>();
    const unpriced = new Set<string>();
    for (const p of positions) {
      const mark = marks.get(p.market);
      if (mark === undefined) {
        unpriced.add(p.wallet);
        continue;
      }
      const outcome = outcomeAtExit({
        side: p.side,
        marginMicro: BigInt(p.margin_micro),
        leverage: p.leverage,
        entryPrice: BigInt(p.entry_price),
        exitPrice: mark,
        bust: BigInt(p.bust_price),
        config: marketConfig(p.market),
      });
      unrealized.set(p.wallet, (unrealized.get(p.wallet) ?? 0n) + outcome.pnlMicro);
    }
    const rows = accounts.filter((a) => !unpriced.has(a.wallet));
    if (unpriced.size > 0) this.logger.warn(`no fresh price: skipped ${unpriced.size} account(s) with open positions`);
    if (rows.length === 0) return 0;
    const cols: string[][] = [[], [], [], [], []];
    for (const a of rows) {
      const u = unrealized.get(a.wallet) ?? 0n;
      const equity = BigInt(a.free_micro) + BigInt(a.locked_micro) + BigInt(a.queued_micro) + u;
      [a.wallet, equity.toString(), a.free_micro, a.locked_micro, u.toString()].forEach((v, i) => cols[i]!.push(v));
    }
    await this.dataSource.query(
      `INSERT INTO exchange.equity_snapshots (wallet, taken_at, equity_micro, free_micro, locked_micro, unrealized_pnl_micro)
       SELECT v.wallet, date_trunc('minute', now()), v.equity, v.free, v.locked, v.unrealized
         FROM unnest($1::varchar[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) AS v(wallet, equity, free, locked, unrealized)
       ON CONFLICT (wallet, taken_at) DO NOTHING`,
      cols,
    );
    return rows.length;
  }
}

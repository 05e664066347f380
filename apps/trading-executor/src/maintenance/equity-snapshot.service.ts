import { Injectable, Logger } from '@nestjs/common';
import { type Market, MARKETS, marketConfig, outcomeAtExit } from '@paper/exchange';
import { insertEquitySnapshots, openPositionsOfWallets, snapshotAccounts } from '@paper/exchange-data';
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
    const accounts = await snapshotAccounts(this.dataSource, ACTIVE_WINDOW);
    if (accounts.length === 0) return 0;
    const positions = await openPositionsOfWallets(
      this.dataSource,
      accounts.map((a) => a.wallet),
    );
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
        marginMicro: p.marginMicro,
        leverage: p.leverage,
        entryPrice: p.entryPrice,
        exitPrice: mark,
        bust: p.bustPrice,
        config: marketConfig(p.market),
      });
      unrealized.set(p.wallet, (unrealized.get(p.wallet) ?? 0n) + outcome.pnlMicro);
    }
    const rows = accounts.filter((a) => !unpriced.has(a.wallet));
    if (unpriced.size > 0) this.logger.warn(`no fresh price: skipped ${unpriced.size} account(s) with open positions`);
    if (rows.length === 0) return 0;
    await insertEquitySnapshots(
      this.dataSource,
      rows.map((a) => {
        const u = unrealized.get(a.wallet) ?? 0n;
        return {
          wallet: a.wallet,
          equityMicro: a.freeMicro + a.lockedMicro + a.queuedMicro + u,
          freeMicro: a.freeMicro,
          lockedMicro: a.lockedMicro,
          unrealizedPnlMicro: u,
        };
      }),
    );
    return rows.length;
  }
}

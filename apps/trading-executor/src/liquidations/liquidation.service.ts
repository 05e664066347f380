import { Inject, Injectable } from '@nestjs/common';
import { type AccountDelta, liquidationAccounting, type Market, type Side } from '@paper/exchange';
import { APP_CONFIG } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { addDelta, applyAccountDeltas, lockAccounts } from '../database/account-balances';
import { type LedgerTx, writeLedger } from '../database/ledger-writer';
import { cancelOwnClaims } from '../database/payout-claims';
import { lockPool, savePool } from '../database/protocol-pool';
import { inTransaction, type Sql } from '../database/sql-transaction';
import { liquidationsTotal } from '../metrics/executor-metrics';

interface Candidate {
  id: string;
  wallet: string;
  side: Side;
  margin_micro: string;
  notional_micro: string;
  margin_queued_micro: string;
}

/**
 * Liquidates every open position of a market whose bust price the mark has reached: longs with
 * bust >= mark, shorts with bust <= mark, found by a range scan of positions_open_bust_idx and settled
 * in set-based batches (the whole margin to the LP or parked, PAPER minted to the trader, exit = mark).
 */
@Injectable()
export class LiquidationService {
  private readonly batchSize: number;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: Pick<TradingExecutorConfig, 'LIQUIDATION_BATCH'>,
  ) {
    this.batchSize = config.LIQUIDATION_BATCH;
  }

  /** Liquidates in batches until nothing at `mark` is left; returns how many positions were liquidated. */
  async liquidateAt(market: Market, mark: bigint): Promise<number> {
    let total = 0;
    for (let round = 0; round < 10_000; round += 1) {
      const { candidates, liquidated } = await inTransaction(this.dataSource, (sql) => this.batch(sql, market, mark));
      total += liquidated;
      if (candidates === 0) break;
    }
    if (total > 0) liquidationsTotal.inc({ market }, total);
    return total;
  }

  private async batch(sql: Sql, market: Market, mark: bigint): Promise<{ candidates: number; liquidated: number }> {
    const { rows: found } = await sql<{ id: string; wallet: string }>(
      `(SELECT id, wallet FROM exchange.positions WHERE market = $1 AND side = 'long' AND status = 'open' AND bust_price >= $2 ORDER BY bust_price DESC LIMIT $3)
       UNION ALL
       (SELECT id, wallet FROM exchange.positions WHERE market = $1 AND side = 'short' AND status = 'open' AND bust_price <= $2 ORDER BY bust_price LIMIT $3)`,
      [market, mark, this.batchSize],
    );
    if (found.length === 0) return { candidates: 0, liquidated: 0 };
    await lockAccounts(sql, found.map((f) => f.wallet));
    const { rows } = await sql<Candidate>(
      `SELECT id, wallet, side, margin_micro, notional_micro, margin_queued_micro FROM exchange.positions
        WHERE id = ANY($1::bigint[]) AND status = 'open' ORDER BY id FOR UPDATE`,
      [found.map((f) => f.id)],
    );
    if (rows.length === 0) return { candidates: found.length, liquidated: 0 };

    let pool = await lockPool(sql);
    const deltas = new Map<string, AccountDelta>();
    const claims = new Map<string, bigint>();
    const txs: LedgerTx[] = [];
    const minted: string[] = [];
    let paper = 0n;
    let longOi = 0n;
    let shortOi = 0n;
    for (const r of rows) {
      const acc = liquidationAccounting({
        position: { wallet: r.wallet, side: r.side, entryPrice: 1n, marginMicro: BigInt(r.margin_micro), leverage: 1, marginQueuedMicro: BigInt(r.margin_queued_micro) },
        pool,
      });
      pool = { ...pool, ...acc.pool };
      deltas.set(r.wallet, addDelta(deltas.get(r.wallet), acc.account));
      if (acc.queueClaimCancelledMicro > 0n) claims.set(r.wallet, (claims.get(r.wallet) ?? 0n) + acc.queueClaimCancelledMicro);
      txs.push({ lines: acc.lines, reason: 'liquidation', ref: r.id });
      minted.push(acc.rewardMintedMicro.toString());
      paper += acc.rewardMintedMicro;
      if (r.side === 'long') longOi += BigInt(r.notional_micro);
      else shortOi += BigInt(r.notional_micro);
    }
    await sql(
      `UPDATE exchange.positions p SET status = 'liquidated', exit_price = $2, pnl_micro = -p.margin_micro, reward_minted_micro = v.minted,
              margin_queued_micro = 0, closed_at = now()
         FROM unnest($1::bigint[], $3::bigint[]) AS v(id, minted) WHERE p.id = v.id`,
      [rows.map((r) => r.id), mark, minted],
    );
    for (const [wallet, amount] of claims) await cancelOwnClaims(sql, wallet, amount);
    await applyAccountDeltas(sql, deltas, false);
    await writeLedger(sql, txs);
    await savePool(sql, pool, { paperMintedMicro: paper });
    await sql(`UPDATE exchange.markets SET long_oi_micro = long_oi_micro - $2, short_oi_micro = short_oi_micro - $3 WHERE market = $1`, [market, longOi, shortOi]);
    return { candidates: found.length, liquidated: rows.length };
  }
}

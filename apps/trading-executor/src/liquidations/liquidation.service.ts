import { Inject, Injectable } from '@nestjs/common';
import {
  type AccountDelta,
  isLiquidatable,
  liquidationAccounting,
  type Market,
  type Side,
  addDelta,
} from '@paper/exchange';
import {
  appendEvents,
  applyAccountDeltas,
  cancelOwnClaims,
  type LedgerTx,
  liquidationCandidates,
  lockAccounts,
  lockOpenPositions,
  lockPool,
  markLiquidated,
  type NewExchangeEvent,
  reduceOpenInterest,
  savePool,
  settlingPosition,
  writeLedger,
} from '@paper/exchange-data';
import { APP_CONFIG } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { inTransaction, type Sql } from '../database/sql-transaction';
import { settledEvent } from '../events/exchange-event-builders';
import { liquidationsTotal } from '../metrics/executor-metrics';

/**
 * The marks a liquidation pass covers: the lowest and the highest mark seen since the previous pass
 * (equal for a single tick). Longs are liquidated at the low, shorts at the high, so a spike through a
 * bust price that reverted before the pass ran is not missed.
 */
export interface MarkRange {
  readonly low: bigint;
  readonly high: bigint;
}

/**
 * Liquidates every open position of a market whose bust price the marks have reached: longs with
 * bust >= low, shorts with bust <= high, found by a range scan of positions_open_bust_idx, confirmed
 * with `isLiquidatable` under the row locks, and settled in set-based batches (the whole margin to the
 * LP or parked, PAPER minted to the trader, exit = the low for longs and the high for shorts).
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
  liquidateAt(market: Market, mark: bigint): Promise<number> {
    return this.liquidateRange(market, { low: mark, high: mark });
  }

  /** Liquidates longs at `marks.low` and shorts at `marks.high`, in batches until nothing is left. */
  async liquidateRange(market: Market, marks: MarkRange): Promise<number> {
    if (marks.low > marks.high) throw new RangeError(`Mark range low ${marks.low} is above high ${marks.high}`);
    let total = 0;
    for (let round = 0; round < 10_000; round += 1) {
      const { candidates, liquidated } = await inTransaction(this.dataSource, (sql) => this.batch(sql, market, marks));
      total += liquidated;
      if (candidates === 0) break;
    }
    if (total > 0) liquidationsTotal.inc({ market }, total);
    return total;
  }

  private async batch(sql: Sql, market: Market, marks: MarkRange): Promise<{ candidates: number; liquidated: number }> {
    const found = await liquidationCandidates(sql, market, marks, this.batchSize);
    if (found.length === 0) return { candidates: 0, liquidated: 0 };
    await lockAccounts(
      sql,
      found.map((f) => f.wallet),
    );
    const locked = await lockOpenPositions(
      sql,
      found.map((f) => f.id),
    );
    const markOf = (side: Side) => (side === 'long' ? marks.low : marks.high);
    const rows = locked.filter((r) => isLiquidatable(r.side, markOf(r.side), r.bustPrice));
    // None left (closed meanwhile): look again. Still open but not liquidatable cannot happen (the range scan is the
    // same rule): stop.
    if (rows.length === 0) return { candidates: locked.length === 0 ? found.length : 0, liquidated: 0 };

    let pool = await lockPool(sql);
    const deltas = new Map<string, AccountDelta>();
    const claims = new Map<string, bigint>();
    const txs: LedgerTx[] = [];
    const liquidated: { id: string; exit: bigint; mintedMicro: bigint }[] = [];
    const events: NewExchangeEvent[] = [];
    let paper = 0n;
    let longOi = 0n;
    let shortOi = 0n;
    for (const r of rows) {
      const acc = liquidationAccounting({
        position: settlingPosition(r),
        pool,
      });
      pool = { ...pool, ...acc.pool };
      deltas.set(r.wallet, addDelta(deltas.get(r.wallet), acc.account));
      if (acc.queueClaimCancelledMicro > 0n)
        claims.set(r.wallet, (claims.get(r.wallet) ?? 0n) + acc.queueClaimCancelledMicro);
      txs.push({ lines: acc.lines, reason: 'liquidation', ref: r.id });
      liquidated.push({ id: r.id, exit: markOf(r.side), mintedMicro: acc.rewardMintedMicro });
      events.push(
        settledEvent('position.liquidated', r, {
          exit: markOf(r.side),
          pnlMicro: -r.marginMicro,
          feeMicro: 0n,
          paidMicro: 0n,
          queuedMicro: 0n,
          rewardMintedMicro: acc.rewardMintedMicro,
          intentId: null,
        }),
      );
      paper += acc.rewardMintedMicro;
      if (r.side === 'long') longOi += r.notionalMicro;
      else shortOi += r.notionalMicro;
    }
    await markLiquidated(sql, liquidated);
    for (const [wallet, amount] of claims) await cancelOwnClaims(sql, wallet, amount);
    await applyAccountDeltas(sql, deltas, false);
    await writeLedger(sql, txs);
    await savePool(sql, pool, { paperMintedMicro: paper });
    await reduceOpenInterest(sql, market, longOi, shortOi);
    await appendEvents(sql, events);
    return { candidates: found.length, liquidated: rows.length };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import {
  type AccountDelta,
  distributeToStakers,
  microToUsdc,
  planHarvest,
  type QueuedPayout,
  usdc,
} from '@paper/exchange';
import {
  appendEvents,
  applyAccountDeltas,
  creditStakingRewards,
  exchangeEvent,
  lockAccounts,
  lockPool,
  type NewExchangeEvent,
  payoutFunds,
  payoutQueueNotEmpty,
  payQueueEntry,
  releasePledgedMargin,
  savePool,
  stakes,
  stakingWallets,
  type UnpaidPayout,
  unpaidPayoutHead,
  writeLedger,
} from '@paper/exchange-data';
import { APP_CONFIG } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { inTransaction, type Sql } from '../database/sql-transaction';

export interface HarvestReport {
  /** Paid from the queue: traders' winnings and queued win fees. */
  paidMicro: bigint;
  /** Of which queued win fees collected into protocol fees. */
  feesCollectedMicro: bigint;
  entriesPaid: number;
  queueCleared: boolean;
  /** LP above the cap moved out of the LP (into the staking reserve) by this run. */
  lpSweptMicro: bigint;
  /** Staking reserve paid to stakers by this run. */
  sweptToStakersMicro: bigint;
  feesToStakersMicro: bigint;
}

/** Queue entries read per harvest transaction. */
const MAX_ENTRIES = 1000;
/** Harvest transactions per run (each pays what it can reach; the next continues where it stopped). */
const MAX_ROUNDS = 20;
const ZERO: AccountDelta = { freeMicro: 0n, lockedMicro: 0n, queuedMicro: 0n, realizedPnlMicro: 0n, paperMicro: 0n };

interface QueueRound {
  paidMicro: bigint;
  feesCollectedMicro: bigint;
  entriesPaid: number;
  queueCleared: boolean;
  /** The funds reached an entry whose wallet this round had not locked: run another round. */
  more: boolean;
}

/**
 * The periodic harvest: pays the payout queue head first from the LP and the parked losses (each
 * entry's trader part, then its queued win fee), then moves the LP above the cap into the staking
 * reserve and pays stakers (pro rata to staked PAPER) the reserve and, by default, the pending win fees.
 */
@Injectable()
export class HarvestService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: Pick<TradingExecutorConfig, 'LP_CAP_USDC' | 'FEES_TO_STAKERS'>,
  ) {}

  async harvest(): Promise<HarvestReport> {
    const paid = await this.payQueue();
    const stakers = await this.payStakers();
    return { ...paid, ...stakers };
  }

  private async payQueue(): Promise<
    Pick<HarvestReport, 'paidMicro' | 'feesCollectedMicro' | 'entriesPaid' | 'queueCleared'>
  > {
    const total = { paidMicro: 0n, feesCollectedMicro: 0n, entriesPaid: 0, queueCleared: false };
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const r = await inTransaction(this.dataSource, (sql) => this.payQueueRound(sql));
      total.paidMicro += r.paidMicro;
      total.feesCollectedMicro += r.feesCollectedMicro;
      total.entriesPaid += r.entriesPaid;
      total.queueCleared = r.queueCleared;
      if (!r.more) break;
    }
    return total;
  }

  /**
   * One harvest transaction. The lock order (accounts, positions, payout queue rows, protocol row) means
   * the accounts of the entries to pay are locked before the protocol row; which entries the funds reach
   * is only known under the protocol lock (a concurrent close can add parked losses or cancel a claim
   * until then). So: guess the wallets from an unlocked read, lock them, lock the protocol row, then read
   * the funds and the queue head and choose the entries under the lock, paying head first up to the
   * first entry whose wallet is not locked (first-in-first-out is kept; the next round goes on from it).
   */
  private async payQueueRound(sql: Sql): Promise<QueueRound> {
    const guess = await this.reachableHead(sql);
    const accounts = await lockAccounts(
      sql,
      guess.map((e) => e.wallet),
    );
    const pool = await lockPool(sql);
    const head = await unpaidPayoutHead(sql, MAX_ENTRIES, true);
    const byId = new Map(head.map((e) => [e.id, e]));
    const entries: QueuedPayout[] = [];
    let more = false;
    let budget = pool.lpMicro + pool.parkedMicro;
    for (const e of head) {
      if (budget <= 0n) break;
      if (!accounts.has(e.wallet)) {
        more = true;
        break;
      }
      const entry = { id: e.id, wallet: e.wallet, amountMicro: e.remainingMicro, feeMicro: e.feeRemainingMicro };
      entries.push(entry);
      budget -= entry.amountMicro + entry.feeMicro;
    }
    if (budget > 0n && head.length === MAX_ENTRIES && entries.length === head.length) more = true;
    const queued = new Map([...accounts].map(([wallet, a]) => [wallet, a.queuedMicro]));
    const plan = planHarvest(pool, entries, queued);
    const deltas = new Map<string, AccountDelta>();
    const events: NewExchangeEvent[] = [];
    for (const p of plan.payments) {
      const entry = byId.get(p.id)!;
      const remaining = entry.remainingMicro - p.amountMicro;
      events.push(
        exchangeEvent(
          'payout.paid',
          {
            amountUsd: Number(microToUsdc(p.amountMicro)),
            positionId: entry.positionId,
            remainingQueuedUsd: Number(microToUsdc(remaining > 0n ? remaining : 0n)),
          },
          { wallet: p.wallet },
        ),
      );
      await payQueueEntry(sql, p.id, p.amountMicro, p.feeMicro);
      await releasePledgedMargin(sql, p.wallet, p.pledgeReleasedMicro);
      const d = deltas.get(p.wallet) ?? ZERO;
      deltas.set(p.wallet, {
        ...d,
        freeMicro: d.freeMicro + p.toFreeMicro,
        queuedMicro: d.queuedMicro - p.toFreeMicro,
      });
    }
    await applyAccountDeltas(sql, deltas, false);
    await writeLedger(sql, [{ lines: plan.lines, reason: 'harvest', ref: null }]);
    await appendEvents(
      sql,
      events.filter((e) => (e.data as { amountUsd: number }).amountUsd > 0),
    );
    const stillQueued = await payoutQueueNotEmpty(sql);
    await savePool(sql, { ...plan.pool, queueNotEmpty: stillQueued }, { feesCollectedMicro: plan.feesCollectedMicro });
    return {
      paidMicro: plan.paidMicro,
      feesCollectedMicro: plan.feesCollectedMicro,
      entriesPaid: plan.payments.filter((p) => p.cleared).length,
      queueCleared: !stillQueued,
      more: more && stillQueued,
    };
  }

  /** Without locks: the head entries the current funds reach (only to know which accounts to lock). */
  private async reachableHead(sql: Sql): Promise<UnpaidPayout[]> {
    let budget = await payoutFunds(sql);
    const head = await unpaidPayoutHead(sql, MAX_ENTRIES, false);
    const reach: UnpaidPayout[] = [];
    for (const entry of head) {
      if (budget <= 0n) break;
      reach.push(entry);
      budget -= entry.remainingMicro + entry.feeRemainingMicro;
    }
    return reach;
  }

  private payStakers(): Promise<Pick<HarvestReport, 'lpSweptMicro' | 'sweptToStakersMicro' | 'feesToStakersMicro'>> {
    return inTransaction(this.dataSource, async (sql) => {
      const wallets = await stakingWallets(sql);
      await lockAccounts(sql, wallets);
      const stakers = await stakes(sql, wallets);
      const pool = await lockPool(sql);
      const d = distributeToStakers(
        pool,
        stakers.map((s) => ({ id: s.wallet, weight: s.stakedMicro })),
        {
          lpCapMicro: usdc(this.config.LP_CAP_USDC),
          feesToStakers: this.config.FEES_TO_STAKERS,
        },
      );
      if (d.lines.length === 0) return { lpSweptMicro: 0n, sweptToStakersMicro: 0n, feesToStakersMicro: 0n };
      await creditStakingRewards(sql, d.credits);
      await writeLedger(sql, [{ lines: d.lines, reason: 'staking_reward', ref: null }]);
      await savePool(sql, d.pool, { sweptToStakersMicro: d.reserveDistributedMicro });
      return {
        lpSweptMicro: d.sweptMicro,
        sweptToStakersMicro: d.reserveDistributedMicro,
        feesToStakersMicro: d.feesDistributedMicro,
      };
    });
  }
}

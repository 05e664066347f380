import { Inject, Injectable } from '@nestjs/common';
import { type AccountDelta, distributeToStakers, planHarvest, type QueuedPayout, usdc } from '@paper/exchange';
import { APP_CONFIG } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { applyAccountDeltas, lockAccounts } from '../database/account-balances';
import { writeLedger } from '../database/ledger-writer';
import { releasePledgedMargin } from '../database/payout-claims';
import { lockPool, savePool } from '../database/protocol-pool';
import { inTransaction } from '../database/sql-transaction';

export interface HarvestReport {
  paidMicro: bigint;
  entriesPaid: number;
  queueCleared: boolean;
  sweptToStakersMicro: bigint;
  feesToStakersMicro: bigint;
}

const MAX_ENTRIES = 1000;
const ZERO: AccountDelta = { freeMicro: 0n, lockedMicro: 0n, queuedMicro: 0n, realizedPnlMicro: 0n, paperMicro: 0n };

/**
 * The periodic harvest: pays the payout queue head first from the LP and the parked losses, then pays
 * stakers (pro rata to staked PAPER) the LP above the cap and, by default, the pending win fees.
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

  private payQueue(): Promise<Pick<HarvestReport, 'paidMicro' | 'entriesPaid' | 'queueCleared'>> {
    return inTransaction(this.dataSource, async (sql) => {
      // Plan without locks: which head entries the funds can reach, so their wallets are locked first.
      const { rows: state } = await sql<{ funds: string }>(`SELECT lp_micro + parked_micro AS funds FROM exchange.protocol_state WHERE id = 1`);
      const { rows: head } = await sql<{ id: string; wallet: string; remaining_micro: string }>(
        `SELECT id, wallet, remaining_micro FROM exchange.payout_queue WHERE paid_at IS NULL ORDER BY id LIMIT ${MAX_ENTRIES}`,
      );
      let budget = BigInt(state[0]!.funds);
      const reach: typeof head = [];
      for (const entry of head) {
        if (budget <= 0n) break;
        reach.push(entry);
        budget -= BigInt(entry.remaining_micro);
      }
      const accounts = await lockAccounts(sql, reach.map((e) => e.wallet));
      const { rows: locked } = await sql<{ id: string; wallet: string; remaining_micro: string }>(
        `SELECT id, wallet, remaining_micro FROM exchange.payout_queue WHERE id = ANY($1::bigint[]) AND paid_at IS NULL ORDER BY id FOR UPDATE`,
        [reach.map((e) => e.id)],
      );
      const pool = await lockPool(sql);
      const entries: QueuedPayout[] = locked.map((e) => ({ id: e.id, wallet: e.wallet, amountMicro: BigInt(e.remaining_micro) }));
      const queued = new Map([...accounts].map(([wallet, a]) => [wallet, a.queuedMicro]));
      const plan = planHarvest(pool, entries, queued);
      const deltas = new Map<string, AccountDelta>();
      for (const p of plan.payments) {
        await sql(
          `UPDATE exchange.payout_queue SET remaining_micro = remaining_micro - $2, paid_at = CASE WHEN $3 THEN now() ELSE NULL END WHERE id = $1`,
          [p.id, p.amountMicro, p.cleared],
        );
        await releasePledgedMargin(sql, p.wallet, p.pledgeReleasedMicro);
        const d = deltas.get(p.wallet) ?? ZERO;
        deltas.set(p.wallet, { ...d, freeMicro: d.freeMicro + p.toFreeMicro, queuedMicro: d.queuedMicro - p.toFreeMicro });
      }
      await applyAccountDeltas(sql, deltas, false);
      await writeLedger(sql, [{ lines: plan.lines, reason: 'harvest', ref: null }]);
      const { rows: pending } = await sql<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM exchange.payout_queue WHERE paid_at IS NULL) AS any`);
      const stillQueued = pending[0]!.any;
      await savePool(sql, { ...plan.pool, queueNotEmpty: stillQueued });
      return { paidMicro: plan.paidMicro, entriesPaid: plan.payments.filter((p) => p.cleared).length, queueCleared: !stillQueued };
    });
  }

  private payStakers(): Promise<Pick<HarvestReport, 'sweptToStakersMicro' | 'feesToStakersMicro'>> {
    return inTransaction(this.dataSource, async (sql) => {
      const { rows } = await sql<{ wallet: string; staked_micro: string }>(`SELECT wallet, staked_micro FROM exchange.accounts WHERE staked_micro > 0`);
      if (rows.length === 0) return { sweptToStakersMicro: 0n, feesToStakersMicro: 0n };
      await lockAccounts(sql, rows.map((r) => r.wallet));
      const { rows: stakers } = await sql<{ wallet: string; staked_micro: string }>(
        `SELECT wallet, staked_micro FROM exchange.accounts WHERE wallet = ANY($1::varchar[]) AND staked_micro > 0 ORDER BY wallet`,
        [rows.map((r) => r.wallet)],
      );
      const pool = await lockPool(sql);
      const d = distributeToStakers(pool, stakers.map((s) => ({ id: s.wallet, weight: BigInt(s.staked_micro) })), {
        lpCapMicro: usdc(this.config.LP_CAP_USDC),
        feesToStakers: this.config.FEES_TO_STAKERS,
      });
      if (d.credits.length === 0) return { sweptToStakersMicro: 0n, feesToStakersMicro: 0n };
      await sql(
        `UPDATE exchange.accounts a SET staking_rewards_micro = a.staking_rewards_micro + v.amount
           FROM unnest($1::varchar[], $2::bigint[]) AS v(wallet, amount) WHERE a.wallet = v.wallet`,
        [d.credits.map((c) => c.wallet), d.credits.map((c) => c.amountMicro.toString())],
      );
      await writeLedger(sql, [{ lines: d.lines, reason: 'staking_reward', ref: null }]);
      await savePool(sql, d.pool, { sweptToStakersMicro: d.sweptMicro });
      return { sweptToStakersMicro: d.sweptMicro, feesToStakersMicro: d.feesDistributedMicro };
    });
  }
}

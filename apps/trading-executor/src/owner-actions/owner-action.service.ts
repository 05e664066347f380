import { Inject, Injectable } from '@nestjs/common';
import type { OwnerActionResult, SignedOwnerActionPayload } from '@paper/contracts';
import {
  microToUsdc,
  type OwnerAccount,
  type OwnerActionDecision,
  planClaimRewards,
  planStake,
  planUnstake,
  planWithdrawal,
} from '@paper/exchange';
import { creditChainBalance } from '@paper/exchange-data';
import { ownerActionId, signedExpiryProblem } from '@paper/exchange-signing';
import { APP_CONFIG } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import { type Hex, recoverAddress } from 'viem';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { writeLedger } from '../database/ledger-writer';
import { inTransaction, plainSql, type Sql } from '../database/sql-transaction';
import { ownerActionsExecuted } from '../metrics/executor-metrics';
import { type OwnerActionOutcome, refusedAction, toActionResult, toOwnerActionMessage } from './owner-action-message';
import { findOwnerActionResult, recordOwnerAction } from './owner-action-store';

const LEDGER_REASON = { withdraw: 'withdrawal', claim_rewards: 'staking_claim', stake: 'stake', unstake: 'unstake' } as const;

interface AccountRow {
  free_micro: string;
  locked_micro: string;
  queued_micro: string;
  paper_micro: string;
  staked_micro: string;
  unclaimed_micro: string;
}

/**
 * Executes one owner action (withdraw, stake, unstake, claim staking rewards) exactly once. The action
 * must be signed by the wallet itself: a session key's signature is refused (`session_key_not_allowed`).
 * Like an intent, everything happens in one transaction that first locks the wallet's account row (so
 * owner actions and intents of one account run one at a time and never overspend) and records the
 * action with its result; a redelivered job finds the record and returns it unchanged.
 */
@Injectable()
export class OwnerActionService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: Pick<TradingExecutorConfig, 'PAPER_MODE'>,
  ) {}

  /** @param enqueuedAt when the action was submitted (the job's timestamp, ms) */
  async execute(payload: SignedOwnerActionPayload, enqueuedAt: number): Promise<OwnerActionResult> {
    const result = await this.run(payload, enqueuedAt);
    ownerActionsExecuted.inc({ kind: payload.kind, status: result.status });
    return result;
  }

  private async run(payload: SignedOwnerActionPayload, enqueuedAt: number): Promise<OwnerActionResult> {
    const digest = ownerActionId(toOwnerActionMessage(payload));
    if (digest !== payload.actionId.toLowerCase()) {
      // The id does not match the signed content: nothing is recorded under an id that cannot be trusted.
      return toActionResult(payload, refusedAction('bad_action_id', 'The action id does not match the signed action; build and sign the action again.'), new Date());
    }
    const stored = await findOwnerActionResult(plainSql(this.dataSource), payload.actionId);
    if (stored) return stored;
    let signer: string | null;
    try {
      // The action id is the EIP-712 digest the wallet signed.
      signer = (await recoverAddress({ hash: digest, signature: payload.signature as Hex })).toLowerCase();
    } catch {
      signer = null;
    }
    return inTransaction(this.dataSource, async (sql) => {
      const wallet = payload.message.wallet.toLowerCase();
      const { rows } = await sql<AccountRow>(
        `SELECT free_micro, locked_micro, queued_micro, paper_micro, staked_micro, staking_rewards_micro - staking_claimed_micro AS unclaimed_micro
           FROM exchange.accounts WHERE wallet = $1 FOR UPDATE`,
        [wallet],
      );
      const existing = await findOwnerActionResult(sql, payload.actionId);
      if (existing) return existing;
      const now = new Date();
      const row = rows[0];
      let amountMicro = 0n;
      let outcome = (await this.checkSigner(sql, wallet, signer)) ?? this.checkExpiry(payload, enqueuedAt, now);
      if (!outcome && !row) outcome = refusedAction('account_not_found', 'This wallet has no exchange account yet; deposit at least 10 USDC first.');
      if (!outcome && payload.kind === 'withdraw' && !this.config.PAPER_MODE) {
        outcome = refusedAction('withdrawals_unavailable', 'Withdrawals go to the simulated chain balance, which exists only in paper mode; nothing was withdrawn.');
      }
      if (!outcome) {
        const account = ownerAccount(wallet, row!);
        const decision = decide(payload, account);
        if (!decision.ok) outcome = refusedAction(decision.reason, decision.message);
        else {
          const { effect } = decision;
          amountMicro = effect.amountMicro;
          await writeLedger(sql, [{ lines: effect.lines, reason: LEDGER_REASON[payload.kind], ref: `owner:${payload.actionId.toLowerCase()}` }]);
          await sql(
            `UPDATE exchange.accounts SET free_micro = free_micro + $2, paper_micro = paper_micro + $3, staked_micro = staked_micro + $4,
                    staking_claimed_micro = staking_claimed_micro + $5, last_active_at = now() WHERE wallet = $1`,
            [wallet, effect.account.freeMicro, effect.account.paperMicro, effect.account.stakedMicro, effect.account.claimedMicro],
          );
          const chainUsdc =
            payload.kind === 'withdraw' ? microToUsdc(await creditChainBalance({ query: (text, params) => sql(text, params) }, wallet, 'USDC', effect.amountMicro)) : undefined;
          outcome = {
            status: 'executed',
            reason: null,
            message: effect.message,
            amount: microToUsdc(effect.amountMicro),
            account: view(account, effect.account),
            ...(chainUsdc !== undefined ? { chainUsdc } : {}),
          };
        }
      }
      const result = toActionResult(payload, outcome, now);
      await recordOwnerAction(sql, payload, result, amountMicro, enqueuedAt);
      return result;
    });
  }

  /** Only the wallet itself may sign; a session key of the wallet gets its own refusal. */
  private async checkSigner(sql: Sql, wallet: string, signer: string | null): Promise<OwnerActionOutcome | undefined> {
    if (signer === wallet) return undefined;
    if (signer) {
      const { rows } = await sql(`SELECT 1 FROM exchange.session_keys WHERE address = $1 AND wallet = $2`, [signer, wallet]);
      if (rows.length > 0) {
        return refusedAction(
          'session_key_not_allowed',
          'A session key can never withdraw, stake, unstake or claim; sign this action with the wallet itself.',
        );
      }
    }
    return refusedAction('bad_signature', 'The signature is not the wallet\'s; sign this action with the wallet itself.');
  }

  private checkExpiry(payload: SignedOwnerActionPayload, enqueuedAt: number, now: Date): OwnerActionOutcome | undefined {
    const problem = signedExpiryProblem(payload.message.expiresAt, enqueuedAt, now);
    if (problem === 'expired') return refusedAction('action_expired', 'The action expired before it could run (actions are valid for 1 hour); sign it again.');
    if (problem === 'too_far') return refusedAction('action_expiry_too_far', 'The action expires more than 1 hour from now; sign it again with an expiry within the hour.');
    return undefined;
  }

}

function ownerAccount(wallet: string, row: AccountRow): OwnerAccount {
  return {
    wallet,
    freeMicro: BigInt(row.free_micro),
    queuedMicro: BigInt(row.queued_micro),
    lockedMicro: BigInt(row.locked_micro),
    paperMicro: BigInt(row.paper_micro),
    stakedMicro: BigInt(row.staked_micro),
    unclaimedRewardsMicro: BigInt(row.unclaimed_micro),
  };
}

function decide(payload: SignedOwnerActionPayload, account: OwnerAccount): OwnerActionDecision {
  switch (payload.kind) {
    case 'withdraw':
      return planWithdrawal(account, payload.message.to, BigInt(payload.message.amountMicro));
    case 'stake':
      return planStake(account, BigInt(payload.message.amountMicro));
    case 'unstake':
      return planUnstake(account, BigInt(payload.message.amountMicro));
    case 'claim_rewards':
      return planClaimRewards(account);
  }
}

function view(a: OwnerAccount, d: { freeMicro: bigint; paperMicro: bigint; stakedMicro: bigint; claimedMicro: bigint }): OwnerActionResult['account'] {
  return {
    freeUsd: microToUsdc(a.freeMicro + d.freeMicro),
    queuedUsd: microToUsdc(a.queuedMicro),
    paper: microToUsdc(a.paperMicro + d.paperMicro),
    paperStaked: microToUsdc(a.stakedMicro + d.stakedMicro),
    unclaimedStakingRewardsUsd: microToUsdc(a.unclaimedRewardsMicro - d.claimedMicro),
  };
}

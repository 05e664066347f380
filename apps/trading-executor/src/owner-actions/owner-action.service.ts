import { Inject, Injectable, Logger } from '@nestjs/common';
import { type OwnerActionResult, type SignedOwnerActionPayload, signedOwnerActionSchema } from '@paper/contracts';
import {
  microToUsdc,
  type OwnerAccount,
  type OwnerActionDecision,
  planClaimRewards,
  planStake,
  planUnstake,
  planWithdrawal,
} from '@paper/exchange';
import {
  acceptOwnerAction,
  applyOwnerActionEffect,
  creditChainBalance,
  isSessionKeyOf,
  lockOwnerAccount,
  lockOwnerAction,
  type QueuedActionRow,
  queuedOwnerActionIds,
  recordFailedAttempt,
  writeLedger,
} from '@paper/exchange-data';
import { ownerActionId, signedExpiryProblem } from '@paper/exchange-signing';
import { APP_CONFIG, databaseAnswers } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import { type Hex, recoverAddress } from 'viem';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { inTransaction, type Sql } from '../database/sql-transaction';
import { ownerActionsExecuted } from '../metrics/executor-metrics';
import {
  failedResult,
  type OwnerActionOutcome,
  refusedAction,
  toActionResult,
  toOwnerActionMessage,
} from './owner-action-message';
import { storeResult } from './owner-action-store';
import { EXECUTION_FAILED } from '../inbox/execution-failed';

const LEDGER_REASON = {
  withdraw: 'withdrawal',
  claim_rewards: 'staking_claim',
  stake: 'stake',
  unstake: 'unstake',
} as const;

/**
 * Executes accepted owner actions (withdraw, stake, unstake, claim staking rewards) exactly once. The
 * action must be signed by the wallet itself: a session key's signature is refused (`session_key_not_allowed`).
 * One transaction locks the action's inbox row, then the wallet's account row (so owner actions and
 * intents of one account run one at a time and never overspend), and stores the result in the row; a
 * redelivered job or a sweep finds the result and returns it unchanged.
 */
@Injectable()
export class OwnerActionService {
  private readonly logger = new Logger('OwnerActions');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: Pick<TradingExecutorConfig, 'PAPER_MODE'>,
  ) {}

  /** Accepts a signed owner action into the inbox (if it is not yet) and runs it. */
  async execute(payload: SignedOwnerActionPayload): Promise<OwnerActionResult> {
    const refusal = this.refusalBeforeAccepting(payload);
    if (refusal) return refusal;
    const acceptance = await acceptOwnerAction(this.dataSource, payload);
    if (acceptance.state === 'conflict') return this.conflict(payload);
    if (acceptance.state === 'known' && acceptance.result) return acceptance.result;
    const result = await this.settle(acceptance.id);
    if (!result) throw new Error(`owner action ${acceptance.id} was accepted but is not in the inbox`);
    return result;
  }

  /**
   * An action id that is not the digest of the message is refused before anything is stored under it (the id cannot be
   * trusted).
   */
  refusalBeforeAccepting(payload: SignedOwnerActionPayload): OwnerActionResult | null {
    if (ownerActionId(toOwnerActionMessage(payload)) === payload.actionId.toLowerCase()) return null;
    return toActionResult(
      payload,
      refusedAction(
        'bad_action_id',
        'The action id does not match the signed action; build and sign the action again.',
      ),
      new Date(),
    );
  }

  /** The answer to a payload whose id was accepted before with a different signature (nothing is stored). */
  conflict(payload: SignedOwnerActionPayload): OwnerActionResult {
    return toActionResult(
      payload,
      refusedAction(
        'action_id_conflict',
        'Another action with this id was accepted with a different signature; sign the action again.',
      ),
      new Date(),
    );
  }

  /** Runs every queued action nobody is running (the sweeper); returns how many ran. */
  async sweep(limit = 50): Promise<number> {
    let ran = 0;
    for (const id of await queuedOwnerActionIds(this.dataSource, limit)) if (await this.settle(id, true)) ran += 1;
    return ran;
  }

  /**
   * The result of an accepted action, running it if it is still queued: one transaction locks its row
   * (waiting for a replica that runs it, or skipping it with `skipLocked`), then the wallet's account, and
   * stores the result in the row. Null when no such action was accepted (or it is held, with skipLocked).
   */
  async settle(actionId: string, skipLocked = false): Promise<OwnerActionResult | null> {
    let claimed: QueuedActionRow | undefined;
    try {
      const result = await inTransaction(this.dataSource, async (sql) => {
        claimed = await lockOwnerAction(sql, actionId.toLowerCase(), skipLocked);
        if (!claimed) return null;
        if (claimed.status !== 'queued') return claimed.result;
        return this.run(sql, claimed);
      });
      if (result && claimed?.status === 'queued')
        ownerActionsExecuted.inc({ kind: result.kind, status: result.status });
      return result;
    } catch (error) {
      const row = claimed;
      if (!row || row.status !== 'queued' || !(await databaseAnswers(this.dataSource))) throw error;
      this.logger.error(`owner action ${row.id} failed (attempt ${row.attempts + 1}): ${(error as Error).message}`);
      const final = failedResult(row);
      const ended = await inTransaction(this.dataSource, (sql) =>
        recordFailedAttempt(sql, 'owner_actions', row, error, () => ({
          status: 'refused',
          reason: EXECUTION_FAILED.reason,
          message: final.message,
          result: final,
          executedAt: final.executedAt,
        })),
      );
      if (ended) return final;
      throw error;
    }
  }

  private async run(sql: Sql, row: QueuedActionRow): Promise<OwnerActionResult> {
    const parsed = signedOwnerActionSchema.safeParse({
      kind: row.kind,
      message: row.payload,
      signature: row.signature,
      actionId: row.id,
    });
    if (!parsed.success) {
      const result = failedResult(
        row,
        refusedAction('bad_action', 'The stored action is not a valid signed owner action; sign it again.'),
      );
      await storeResult(sql, row, result, 0n);
      return result;
    }
    const payload = parsed.data;
    const digest = ownerActionId(toOwnerActionMessage(payload));
    let signer: string | null;
    try {
      // The action id is the EIP-712 digest the wallet signed.
      signer = (await recoverAddress({ hash: digest, signature: payload.signature as Hex })).toLowerCase();
    } catch {
      signer = null;
    }
    const wallet = payload.message.wallet.toLowerCase();
    const account = await lockOwnerAccount(sql, wallet);
    const now = new Date();
    let amountMicro = 0n;
    let outcome =
      (digest !== row.id
        ? refusedAction(
            'bad_action_id',
            'The action id does not match the signed action; build and sign the action again.',
          )
        : undefined) ??
      (await this.checkSigner(sql, wallet, signer)) ??
      this.checkExpiry(payload, row.created_at.getTime(), now);
    if (!outcome && !account)
      outcome = refusedAction(
        'account_not_found',
        'This wallet has no exchange account yet; deposit at least 10 USDC first.',
      );
    if (!outcome && payload.kind === 'withdraw' && !this.config.PAPER_MODE) {
      outcome = refusedAction(
        'withdrawals_unavailable',
        'Withdrawals go to the simulated chain balance, which exists only in paper mode; nothing was withdrawn.',
      );
    }
    if (!outcome) {
      const before = account!;
      const decision = decide(payload, before);
      if (!decision.ok) outcome = refusedAction(decision.reason, decision.message);
      else {
        const { effect } = decision;
        amountMicro = effect.amountMicro;
        await writeLedger(sql, [
          { lines: effect.lines, reason: LEDGER_REASON[payload.kind], ref: `owner:${payload.actionId.toLowerCase()}` },
        ]);
        await applyOwnerActionEffect(sql, wallet, effect.account);
        const chainUsdc =
          payload.kind === 'withdraw'
            ? microToUsdc(await creditChainBalance(sql, wallet, 'USDC', effect.amountMicro))
            : undefined;
        outcome = {
          status: 'executed',
          reason: null,
          message: effect.message,
          amount: microToUsdc(effect.amountMicro),
          account: view(before, effect.account),
          ...(chainUsdc !== undefined ? { chainUsdc } : {}),
        };
      }
    }
    const result = toActionResult(payload, outcome, now);
    await storeResult(sql, row, result, amountMicro);
    return result;
  }

  /** Only the wallet itself may sign; a session key of the wallet gets its own refusal. */
  private async checkSigner(sql: Sql, wallet: string, signer: string | null): Promise<OwnerActionOutcome | undefined> {
    if (signer === wallet) return undefined;
    if (signer) {
      if (await isSessionKeyOf(sql, signer, wallet)) {
        return refusedAction(
          'session_key_not_allowed',
          'A session key can never withdraw, stake, unstake or claim; sign this action with the wallet itself.',
        );
      }
    }
    return refusedAction(
      'bad_signature',
      "The signature is not the wallet's; sign this action with the wallet itself.",
    );
  }

  private checkExpiry(
    payload: SignedOwnerActionPayload,
    enqueuedAt: number,
    now: Date,
  ): OwnerActionOutcome | undefined {
    const problem = signedExpiryProblem(payload.message.expiresAt, enqueuedAt, now);
    if (problem === 'expired')
      return refusedAction(
        'action_expired',
        'The action expired before it could run (actions are valid for 1 hour); sign it again.',
      );
    if (problem === 'too_far')
      return refusedAction(
        'action_expiry_too_far',
        'The action expires more than 1 hour from now; sign it again with an expiry within the hour.',
      );
    return undefined;
  }
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

function view(
  a: OwnerAccount,
  d: { freeMicro: bigint; paperMicro: bigint; stakedMicro: bigint; claimedMicro: bigint },
): OwnerActionResult['account'] {
  return {
    freeUsd: microToUsdc(a.freeMicro + d.freeMicro),
    queuedUsd: microToUsdc(a.queuedMicro),
    paper: microToUsdc(a.paperMicro + d.paperMicro),
    paperStaked: microToUsdc(a.stakedMicro + d.stakedMicro),
    unclaimedStakingRewardsUsd: microToUsdc(a.unclaimedRewardsMicro - d.claimedMicro),
  };
}

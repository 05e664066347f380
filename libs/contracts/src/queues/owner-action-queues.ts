import { z } from 'zod';
import { defineQueue } from './queue-contract';
import { address, hex32, signature65 as signature, uint256, uint64 } from './signed-fields';

/**
 * An owner action as it travels on the queue (integers as decimal strings): withdraw USDC to the wallet,
 * stake or unstake PAPER, claim staking rewards. Signed (EIP-712) by the wallet's own key, never by a
 * session key; `actionId` is the EIP-712 digest of the message.
 */
export const signedOwnerActionSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('withdraw'),
      message: z
        .object({ wallet: address, to: address, amountMicro: uint256, nonce: uint256, expiresAt: uint64 })
        .strict(),
      signature,
      actionId: hex32,
    })
    .strict(),
  z
    .object({
      kind: z.literal('stake'),
      message: z.object({ wallet: address, amountMicro: uint256, nonce: uint256, expiresAt: uint64 }).strict(),
      signature,
      actionId: hex32,
    })
    .strict(),
  z
    .object({
      kind: z.literal('unstake'),
      message: z.object({ wallet: address, amountMicro: uint256, nonce: uint256, expiresAt: uint64 }).strict(),
      signature,
      actionId: hex32,
    })
    .strict(),
  z
    .object({
      kind: z.literal('claim_rewards'),
      message: z.object({ wallet: address, nonce: uint256, expiresAt: uint64 }).strict(),
      signature,
      actionId: hex32,
    })
    .strict(),
]);

export type SignedOwnerActionPayload = z.infer<typeof signedOwnerActionSchema>;

/** The wake-up of an accepted owner action: its `exchange.owner_actions` row, written first, is the record. */
export const ownerActionWakeUpSchema = z.object({ actionId: hex32 }).strict();

export type OwnerActionWakeUp = z.infer<typeof ownerActionWakeUpSchema>;

/** Owner actions, executed by trading-executor (the only writer of exchange state); job id = action id. */
export const OWNER_ACTIONS_QUEUE = defineQueue(
  'exchange-owner-actions',
  { 'execute-owner-action': ownerActionWakeUpSchema },
  {
    'execute-owner-action': {
      attempts: 3,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: 1000,
      removeOnFail: 1000,
    },
  },
);

/** What trading-executor returns for an owner action (and stores in `exchange.owner_actions.result`). */
export interface OwnerActionResult {
  actionId: string;
  kind: SignedOwnerActionPayload['kind'];
  wallet: string;
  status: 'executed' | 'refused';
  /**
   * Refusal code: withdrawal_below_minimum, withdrawal_not_to_wallet, insufficient_free_balance,
   * amount_not_positive, insufficient_paper, insufficient_staked, nothing_to_claim,
   * session_key_not_allowed, bad_signature, bad_action_id, account_not_found, action_expired,
   * action_expiry_too_far, withdrawals_unavailable.
   */
  reason: string | null;
  /** A sentence for the wallet owner: what happened, or why not and how to fix it. */
  message: string;
  /** ISO time the executor ran the action. */
  executedAt: string;
  /** USDC withdrawn or claimed, or PAPER staked or unstaked (decimal string); "0" when refused. */
  amount: string;
  /** The account after the action (USDC and PAPER as decimal strings); absent when there is none. */
  account?: {
    freeUsd: string;
    queuedUsd: string;
    paper: string;
    paperStaked: string;
    unclaimedStakingRewardsUsd: string;
  };
  /** The wallet's simulated chain USDC balance after a withdrawal (paper mode). */
  chainUsdc?: string;
}

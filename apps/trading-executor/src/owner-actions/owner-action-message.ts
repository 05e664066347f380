import type { OwnerActionResult, SignedOwnerActionPayload } from '@paper/contracts';
import type { OwnerActionMessage } from '@paper/exchange-signing';
import type { Hex } from 'viem';
import { EXECUTION_FAILED } from '../inbox/execution-failed';

/** The signed EIP-712 message of a queued owner action, with its integers back as bigint. */
export function toOwnerActionMessage(payload: SignedOwnerActionPayload): OwnerActionMessage {
  const base = {
    wallet: payload.message.wallet as Hex,
    nonce: BigInt(payload.message.nonce),
    expiresAt: BigInt(payload.message.expiresAt),
  };
  switch (payload.kind) {
    case 'withdraw':
      return {
        kind: 'withdraw',
        message: { ...base, to: payload.message.to as Hex, amountMicro: BigInt(payload.message.amountMicro) },
      };
    case 'stake':
      return { kind: 'stake', message: { ...base, amountMicro: BigInt(payload.message.amountMicro) } };
    case 'unstake':
      return { kind: 'unstake', message: { ...base, amountMicro: BigInt(payload.message.amountMicro) } };
    case 'claim_rewards':
      return { kind: 'claim_rewards', message: base };
  }
}

/** What the service decided; turned into the stored {@link OwnerActionResult}. */
export type OwnerActionOutcome = Pick<
  OwnerActionResult,
  'status' | 'reason' | 'message' | 'amount' | 'account' | 'chainUsdc'
>;

export function refusedAction(reason: string, message: string): OwnerActionOutcome {
  return { status: 'refused', reason, message, amount: '0' };
}

export function toActionResult(
  payload: SignedOwnerActionPayload,
  outcome: OwnerActionOutcome,
  at: Date,
): OwnerActionResult {
  return actionResultOf(
    { id: payload.actionId.toLowerCase(), kind: payload.kind, wallet: payload.message.wallet.toLowerCase() },
    outcome,
    at,
  );
}

/** The result of an action that could not run from its stored row (by default: its attempts failed). */
export function failedResult(
  row: { id: string; kind: SignedOwnerActionPayload['kind']; wallet: string },
  outcome: OwnerActionOutcome = refusedAction(EXECUTION_FAILED.reason, EXECUTION_FAILED.message),
): OwnerActionResult {
  return actionResultOf(row, outcome, new Date());
}

function actionResultOf(
  row: { id: string; kind: SignedOwnerActionPayload['kind']; wallet: string },
  outcome: OwnerActionOutcome,
  at: Date,
): OwnerActionResult {
  const result: OwnerActionResult = {
    actionId: row.id,
    kind: row.kind,
    wallet: row.wallet,
    status: outcome.status,
    reason: outcome.reason,
    message: outcome.message,
    executedAt: at.toISOString(),
    amount: outcome.amount,
  };
  if (outcome.account) result.account = outcome.account;
  if (outcome.chainUsdc !== undefined) result.chainUsdc = outcome.chainUsdc;
  return result;
}

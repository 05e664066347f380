import { formatUsdc, usdc } from './decimal';
import { LedgerLine, PROTOCOL_OWNER, assertBalanced, transfer } from './ledger';

/**
 * Owner actions: what only the wallet itself may do (never a session key): withdraw USDC to the
 * wallet, stake and unstake the reward token (PAPER), and claim staking rewards. Pure checks and
 * bookings; the executor runs them under the account lock.
 */
export type OwnerActionKind = 'withdraw' | 'stake' | 'unstake' | 'claim_rewards';

/** Minimum withdrawal (the same as the minimum deposit). */
export const MIN_WITHDRAWAL_MICRO = usdc(10);

export type OwnerActionRefusal =
  | 'withdrawal_below_minimum'
  | 'withdrawal_not_to_wallet'
  | 'insufficient_free_balance'
  | 'amount_not_positive'
  | 'insufficient_paper'
  | 'insufficient_staked'
  | 'nothing_to_claim';

/** The account as an owner action sees it (read under the account lock). */
export interface OwnerAccount {
  readonly wallet: string;
  /** Withdrawable balance. */
  readonly freeMicro: bigint;
  /** Winnings waiting in the payout queue: usable as margin, never withdrawable until paid. */
  readonly queuedMicro: bigint;
  /** Margin of open positions. */
  readonly lockedMicro: bigint;
  /** PAPER held (not staked), micro-units. */
  readonly paperMicro: bigint;
  readonly stakedMicro: bigint;
  /** Staking rewards credited and not claimed yet (micro-USDC). */
  readonly unclaimedRewardsMicro: bigint;
}

/** Changes of the account's columns. */
export interface OwnerActionDelta {
  readonly freeMicro: bigint;
  readonly paperMicro: bigint;
  readonly stakedMicro: bigint;
  /** Added to the lifetime claimed staking rewards. */
  readonly claimedMicro: bigint;
}

export interface OwnerActionEffect {
  /** USDC withdrawn or claimed, or PAPER staked or unstaked (micro-units). */
  readonly amountMicro: bigint;
  /** Balanced ledger lines (USDC only; PAPER is not in the ledger). */
  readonly lines: LedgerLine[];
  readonly account: OwnerActionDelta;
  /** A sentence for the owner. */
  readonly message: string;
}

export type OwnerActionDecision =
  | { readonly ok: true; readonly effect: OwnerActionEffect }
  | { readonly ok: false; readonly reason: OwnerActionRefusal; readonly message: string };

const NONE: OwnerActionDelta = { freeMicro: 0n, paperMicro: 0n, stakedMicro: 0n, claimedMicro: 0n };

/**
 * A withdrawal of `amountMicro` USDC to `to`: at least 10 USDC, only to the wallet itself, at most the
 * free balance (queued winnings and locked margin cannot be withdrawn). Books free -> `withdrawals`.
 */
export function planWithdrawal(account: OwnerAccount, to: string, amountMicro: bigint): OwnerActionDecision {
  if (to.toLowerCase() !== account.wallet.toLowerCase()) {
    return refuse(
      'withdrawal_not_to_wallet',
      `Withdrawals go only to the wallet itself (${account.wallet}); sign the withdrawal again with that address as ` +
        `the destination.`,
    );
  }
  if (amountMicro < MIN_WITHDRAWAL_MICRO) {
    return refuse(
      'withdrawal_below_minimum',
      `${formatUsdc(amountMicro)} USDC is below the ${formatUsdc(MIN_WITHDRAWAL_MICRO)} USDC minimum withdrawal; ` +
        `withdraw at least ${formatUsdc(MIN_WITHDRAWAL_MICRO)} USDC.`,
    );
  }
  if (amountMicro > account.freeMicro) {
    const notWithdrawable = [
      account.queuedMicro > 0n
        ? `${formatUsdc(account.queuedMicro)} USDC of queued winnings (withdrawable once the payout queue pays them)`
        : null,
      account.lockedMicro > 0n ? `${formatUsdc(account.lockedMicro)} USDC of margin in open positions` : null,
    ].filter(Boolean);
    return refuse(
      'insufficient_free_balance',
      `${formatUsdc(amountMicro)} USDC is more than your free balance of ${formatUsdc(account.freeMicro)} USDC` +
        `${notWithdrawable.length > 0 ? ` (not withdrawable: ${notWithdrawable.join(', ')})` : ''}; withdraw at ` +
        `most ${formatUsdc(account.freeMicro)} USDC.`,
    );
  }
  const lines = transfer(
    { owner: account.wallet, bucket: 'free' },
    { owner: PROTOCOL_OWNER, bucket: 'withdrawals' },
    amountMicro,
  );
  assertBalanced(lines);
  return accept(
    amountMicro,
    lines,
    { ...NONE, freeMicro: -amountMicro },
    `Withdrew ${formatUsdc(amountMicro)} USDC to ${account.wallet}.`,
  );
}

/** Stakes `amountMicro` PAPER from the held balance. */
export function planStake(account: OwnerAccount, amountMicro: bigint): OwnerActionDecision {
  if (amountMicro <= 0n) return refuse('amount_not_positive', 'The amount to stake must be more than 0 PAPER.');
  if (amountMicro > account.paperMicro) {
    return refuse(
      'insufficient_paper',
      `You hold ${paper(account.paperMicro)} PAPER (not staked), less than ${paper(amountMicro)}; stake at most ` +
        `${paper(account.paperMicro)} PAPER.`,
    );
  }
  return accept(
    amountMicro,
    [],
    { ...NONE, paperMicro: -amountMicro, stakedMicro: amountMicro },
    `Staked ${paper(amountMicro)} PAPER; ${paper(account.stakedMicro + amountMicro)} PAPER staked in total.`,
  );
}

/** Unstakes `amountMicro` PAPER back to the held balance. */
export function planUnstake(account: OwnerAccount, amountMicro: bigint): OwnerActionDecision {
  if (amountMicro <= 0n) return refuse('amount_not_positive', 'The amount to unstake must be more than 0 PAPER.');
  if (amountMicro > account.stakedMicro) {
    return refuse(
      'insufficient_staked',
      `You have ${paper(account.stakedMicro)} PAPER staked, less than ${paper(amountMicro)}; unstake at most ` +
        `${paper(account.stakedMicro)} PAPER.`,
    );
  }
  return accept(
    amountMicro,
    [],
    { ...NONE, paperMicro: amountMicro, stakedMicro: -amountMicro },
    `Unstaked ${paper(amountMicro)} PAPER; ${paper(account.stakedMicro - amountMicro)} PAPER still staked.`,
  );
}

/** Claims every unclaimed staking reward into the free balance. Books `stakers` -> free. */
export function planClaimRewards(account: OwnerAccount): OwnerActionDecision {
  const amountMicro = account.unclaimedRewardsMicro;
  if (amountMicro <= 0n)
    return refuse(
      'nothing_to_claim',
      'There are no staking rewards to claim yet; stake PAPER and wait for the next harvest.',
    );
  const lines = transfer(
    { owner: account.wallet, bucket: 'stakers' },
    { owner: account.wallet, bucket: 'free' },
    amountMicro,
  );
  assertBalanced(lines);
  return accept(
    amountMicro,
    lines,
    { ...NONE, freeMicro: amountMicro, claimedMicro: amountMicro },
    `Claimed ${formatUsdc(amountMicro)} USDC of staking rewards into your free balance.`,
  );
}

function accept(
  amountMicro: bigint,
  lines: LedgerLine[],
  account: OwnerActionDelta,
  message: string,
): OwnerActionDecision {
  return { ok: true, effect: { amountMicro, lines, account, message } };
}

function refuse(reason: OwnerActionRefusal, message: string): OwnerActionDecision {
  return { ok: false, reason, message };
}

/** PAPER has 6 decimals like USDC. */
function paper(micro: bigint): string {
  return formatUsdc(micro);
}

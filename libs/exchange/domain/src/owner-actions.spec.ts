import { bucketDelta, ledgerSum, PROTOCOL_OWNER } from './ledger';
import {
  MIN_WITHDRAWAL_MICRO,
  OwnerAccount,
  planClaimRewards,
  planStake,
  planUnstake,
  planWithdrawal,
} from './owner-actions';

const U = 1_000_000n;
const W = '0x00000000000000000000000000000000000000aa';
const account: OwnerAccount = {
  wallet: W,
  freeMicro: 100n * U,
  queuedMicro: 40n * U,
  lockedMicro: 25n * U,
  paperMicro: 5_000n * U,
  stakedMicro: 1_000n * U,
  unclaimedRewardsMicro: 3_500_000n,
};

describe('owner actions', () => {
  it('withdraws at least 10 USDC of the free balance to the wallet itself: free -> withdrawals', () => {
    const r = planWithdrawal(account, W.toUpperCase().replace('0X', '0x'), 10n * U);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.effect.account).toEqual({ freeMicro: -10n * U, paperMicro: 0n, stakedMicro: 0n, claimedMicro: 0n });
    expect(bucketDelta(r.effect.lines, W, 'free')).toBe(-10n * U);
    expect(bucketDelta(r.effect.lines, PROTOCOL_OWNER, 'withdrawals')).toBe(10n * U);
    expect(ledgerSum(r.effect.lines)).toBe(0n);
    expect(planWithdrawal(account, W, 100n * U).ok).toBe(true);
  });

  it('refuses a withdrawal below the minimum, above the free balance (queued winnings and margin are not free) or to another address', () => {
    expect(MIN_WITHDRAWAL_MICRO).toBe(10n * U);
    expect(planWithdrawal(account, W, 10n * U - 1n)).toMatchObject({ ok: false, reason: 'withdrawal_below_minimum' });
    const above = planWithdrawal(account, W, 100n * U + 1n);
    expect(above).toMatchObject({ ok: false, reason: 'insufficient_free_balance' });
    expect(!above.ok && above.message).toMatch(/40 USDC of queued winnings.*25 USDC of margin/);
    expect(planWithdrawal(account, '0x00000000000000000000000000000000000000bb', 20n * U)).toMatchObject({
      ok: false,
      reason: 'withdrawal_not_to_wallet',
    });
  });

  it('stakes and unstakes PAPER within the held and staked balances, with no USDC ledger lines', () => {
    const stake = planStake(account, 5_000n * U);
    expect(stake).toMatchObject({
      ok: true,
      effect: { amountMicro: 5_000n * U, lines: [], account: { paperMicro: -5_000n * U, stakedMicro: 5_000n * U } },
    });
    expect(planStake(account, 5_000n * U + 1n)).toMatchObject({ ok: false, reason: 'insufficient_paper' });
    expect(planStake(account, 0n)).toMatchObject({ ok: false, reason: 'amount_not_positive' });
    expect(planUnstake(account, 1_000n * U)).toMatchObject({
      ok: true,
      effect: { account: { paperMicro: 1_000n * U, stakedMicro: -1_000n * U } },
    });
    expect(planUnstake(account, 1_000n * U + 1n)).toMatchObject({ ok: false, reason: 'insufficient_staked' });
    expect(planUnstake(account, -1n)).toMatchObject({ ok: false, reason: 'amount_not_positive' });
  });

  it('claims every unclaimed staking reward into the free balance: stakers -> free', () => {
    const r = planClaimRewards(account);
    expect(r).toMatchObject({
      ok: true,
      effect: { amountMicro: 3_500_000n, account: { freeMicro: 3_500_000n, claimedMicro: 3_500_000n } },
    });
    if (!r.ok) return;
    expect(bucketDelta(r.effect.lines, W, 'stakers')).toBe(-3_500_000n);
    expect(ledgerSum(r.effect.lines)).toBe(0n);
    expect(planClaimRewards({ ...account, unclaimedRewardsMicro: 0n })).toMatchObject({
      ok: false,
      reason: 'nothing_to_claim',
    });
  });
});

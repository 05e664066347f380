import { formatUsdc, usdc } from './decimal';

/** Minimum deposit (the minimum withdrawal is the same: `MIN_WITHDRAWAL_MICRO`). */
export const MIN_DEPOSIT_MICRO = usdc(10);
/** One-time fee taken from the first deposit of a wallet. */
export const ACTIVATION_FEE_MICRO = usdc(1);

export type DepositDecision =
  | { readonly accepted: true; readonly amountMicro: bigint; readonly feeMicro: bigint; readonly creditMicro: bigint }
  | {
      readonly accepted: false;
      readonly amountMicro: bigint;
      readonly reason: 'deposit_below_minimum';
      readonly message: string;
    };

/** Whether funds found at a deposit proxy are credited: at least 10 USDC; the first deposit pays 1 USDC activation. */
export function evaluateDeposit(amountMicro: bigint, activated: boolean): DepositDecision {
  if (amountMicro < MIN_DEPOSIT_MICRO) {
    return {
      accepted: false,
      amountMicro,
      reason: 'deposit_below_minimum',
      message:
        `Deposits below ${formatUsdc(MIN_DEPOSIT_MICRO)} USDC are not credited; ${formatUsdc(amountMicro)} USDC ` +
        `waits at your deposit address ` +
        `until the total there reaches ${formatUsdc(MIN_DEPOSIT_MICRO)} USDC.`,
    };
  }
  const feeMicro = activated ? 0n : ACTIVATION_FEE_MICRO;
  return { accepted: true, amountMicro, feeMicro, creditMicro: amountMicro - feeMicro };
}

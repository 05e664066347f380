import { getAddress, type Hex } from 'viem';
import type { SessionKeyApproval } from './typed-data';

/** Guardrails as stored and shown (decimal USDC strings, null = no limit). */
export interface GuardrailsInput {
  maxMarginPerTradeUsd: string | null;
  maxLeverage: number | null;
  maxDailyNotionalUsd: string | null;
  maxOpenPositions: number | null;
  allowedMarkets: readonly string[] | null;
  requireConfirmation: boolean;
}

function usdcToMicro(value: string): bigint {
  const [whole, fraction = ''] = value.split('.');
  return BigInt(whole ?? '0') * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6) || '0');
}

/** The exact message the owner signs for these guardrails: 0 = no limit, "*" = every market. */
export function approvalFromGuardrails(
  wallet: string,
  sessionKey: string,
  guardrails: GuardrailsInput,
  expiresAt: bigint,
): SessionKeyApproval {
  return {
    wallet: getAddress(wallet) as Hex,
    sessionKey: getAddress(sessionKey) as Hex,
    maxMarginPerTradeMicro:
      guardrails.maxMarginPerTradeUsd === null ? 0n : usdcToMicro(guardrails.maxMarginPerTradeUsd),
    maxLeverage: guardrails.maxLeverage ?? 0,
    maxDailyNotionalMicro: guardrails.maxDailyNotionalUsd === null ? 0n : usdcToMicro(guardrails.maxDailyNotionalUsd),
    maxOpenPositions: guardrails.maxOpenPositions ?? 0,
    allowedMarkets: guardrails.allowedMarkets === null ? '*' : [...guardrails.allowedMarkets].sort().join(','),
    requireConfirmation: guardrails.requireConfirmation,
    canWithdraw: false,
    expiresAt,
  };
}

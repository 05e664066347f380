import type { Hex } from 'viem';

/**
 * EIP-712 messages of the exchange. Trading writes are intents signed by the wallet's session key; a
 * session key is approved once by the wallet owner's signature over the key, its guardrails and expiry.
 * Moving funds (withdraw, stake, unstake, claim) is signed by the wallet itself (owner-action-signing.ts).
 * Amounts are integers (micro-USDC); guardrail limits use 0 for "no limit" and "*" for all markets.
 */
export const EXCHANGE_DOMAIN_NAME = 'Paper Perps';
export const EXCHANGE_DOMAIN_VERSION = '1';
export const DEFAULT_CHAIN_ID = 42161;
export const VERIFYING_CONTRACT: Hex = '0x0000000000000000000000000000000000009e59';

export function exchangeDomain(chainId: number = DEFAULT_CHAIN_ID) {
  return {
    name: EXCHANGE_DOMAIN_NAME,
    version: EXCHANGE_DOMAIN_VERSION,
    chainId,
    verifyingContract: VERIFYING_CONTRACT,
  } as const;
}

export const SESSION_KEY_APPROVAL_TYPES = {
  SessionKeyApproval: [
    { name: 'wallet', type: 'address' },
    { name: 'sessionKey', type: 'address' },
    { name: 'maxMarginPerTradeMicro', type: 'uint256' },
    { name: 'maxLeverage', type: 'uint32' },
    { name: 'maxDailyNotionalMicro', type: 'uint256' },
    { name: 'maxOpenPositions', type: 'uint32' },
    { name: 'allowedMarkets', type: 'string' },
    { name: 'requireConfirmation', type: 'bool' },
    { name: 'canWithdraw', type: 'bool' },
    { name: 'expiresAt', type: 'uint64' },
  ],
} as const;

export const INTENT_TYPES = {
  OpenIntent: [
    { name: 'wallet', type: 'address' },
    { name: 'market', type: 'string' },
    { name: 'side', type: 'string' },
    { name: 'marginMicro', type: 'uint256' },
    { name: 'leverage', type: 'uint32' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiresAt', type: 'uint64' },
  ],
  CloseIntent: [
    { name: 'wallet', type: 'address' },
    { name: 'positionIds', type: 'uint256[]' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiresAt', type: 'uint64' },
  ],
  CancelIntent: [
    { name: 'wallet', type: 'address' },
    { name: 'intentId', type: 'bytes32' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiresAt', type: 'uint64' },
  ],
} as const;

export interface SessionKeyApproval {
  wallet: Hex;
  sessionKey: Hex;
  maxMarginPerTradeMicro: bigint;
  maxLeverage: number;
  maxDailyNotionalMicro: bigint;
  maxOpenPositions: number;
  /** Comma-separated market list, or "*" for every market. */
  allowedMarkets: string;
  requireConfirmation: boolean;
  /** Always false: a session key can never withdraw, stake or claim. */
  canWithdraw: false;
  /** Unix seconds. */
  expiresAt: bigint;
}

export interface OpenIntent {
  wallet: Hex;
  market: string;
  side: 'long' | 'short';
  marginMicro: bigint;
  leverage: number;
  nonce: bigint;
  expiresAt: bigint;
}

export interface CloseIntent {
  wallet: Hex;
  positionIds: readonly bigint[];
  nonce: bigint;
  expiresAt: bigint;
}

export interface CancelIntent {
  wallet: Hex;
  intentId: Hex;
  nonce: bigint;
  expiresAt: bigint;
}

export type IntentMessage =
  | { kind: 'open'; message: OpenIntent }
  | { kind: 'close'; message: CloseIntent }
  | { kind: 'cancel'; message: CancelIntent };

export const PRIMARY_TYPE = { open: 'OpenIntent', close: 'CloseIntent', cancel: 'CancelIntent' } as const;

/** Intents are valid for one hour; a close intent carries at most 12 positions; keys live at most 30 days. */
export const INTENT_TTL_SECONDS = 3600;
export const MAX_POSITIONS_PER_CLOSE_INTENT = 12;
export const MAX_SESSION_KEY_TTL_SECONDS = 30 * 24 * 3600;
/** Clock skew tolerated on a signed expiry. */
export const EXPIRY_SLACK_SECONDS = 300;

/**
 * Why a signed intent or owner action may not run any more, if it may not: `expired` (its signed expiry
 * passed, or it waited in the queue longer than an intent lives) or `too_far` (it claims to be valid
 * for more than the hour intents live, beyond the tolerated clock skew).
 * @param expiresAt the signed expiry (unix seconds, decimal string) @param enqueuedAt when it was submitted (ms)
 */
export function signedExpiryProblem(
  expiresAt: string,
  enqueuedAt: number,
  now: Date,
): 'expired' | 'too_far' | undefined {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const expires = Number(expiresAt);
  if (expires <= nowSeconds || now.getTime() - enqueuedAt > INTENT_TTL_SECONDS * 1000) return 'expired';
  if (expires > nowSeconds + INTENT_TTL_SECONDS + EXPIRY_SLACK_SECONDS) return 'too_far';
  return undefined;
}

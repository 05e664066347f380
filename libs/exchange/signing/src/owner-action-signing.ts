import { hashTypedData, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { exchangeDomain } from './typed-data';

/**
 * EIP-712 messages of owner actions: signed by the wallet's own key, never by a session key (a session
 * key's signature recovers to the session key, not the wallet, and is refused). The primary type names
 * differ from the intents', so an intent signature can never pass for an owner action.
 */
export const OWNER_ACTION_TYPES = {
  Withdraw: [
    { name: 'wallet', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'amountMicro', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiresAt', type: 'uint64' },
  ],
  Stake: [
    { name: 'wallet', type: 'address' },
    { name: 'amountMicro', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiresAt', type: 'uint64' },
  ],
  Unstake: [
    { name: 'wallet', type: 'address' },
    { name: 'amountMicro', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiresAt', type: 'uint64' },
  ],
  ClaimStakingRewards: [
    { name: 'wallet', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiresAt', type: 'uint64' },
  ],
} as const;

/** Withdraw `amountMicro` USDC (micro-units) to `to`, which must be the wallet itself. */
export interface WithdrawRequest {
  wallet: Hex;
  to: Hex;
  amountMicro: bigint;
  nonce: bigint;
  expiresAt: bigint;
}

/** Stake or unstake `amountMicro` PAPER (micro-units). */
export interface StakeRequest {
  wallet: Hex;
  amountMicro: bigint;
  nonce: bigint;
  expiresAt: bigint;
}

export interface ClaimStakingRewardsRequest {
  wallet: Hex;
  nonce: bigint;
  expiresAt: bigint;
}

export type OwnerActionMessage =
  | { kind: 'withdraw'; message: WithdrawRequest }
  | { kind: 'stake'; message: StakeRequest }
  | { kind: 'unstake'; message: StakeRequest }
  | { kind: 'claim_rewards'; message: ClaimStakingRewardsRequest };

export const OWNER_ACTION_PRIMARY_TYPE = {
  withdraw: 'Withdraw',
  stake: 'Stake',
  unstake: 'Unstake',
  claim_rewards: 'ClaimStakingRewards',
} as const;

/** The typed data the wallet owner signs (for eth_signTypedData_v4). */
export function ownerActionTypedData(action: OwnerActionMessage, chainId?: number) {
  return {
    domain: exchangeDomain(chainId),
    types: OWNER_ACTION_TYPES,
    primaryType: OWNER_ACTION_PRIMARY_TYPE[action.kind],
    message: action.message as never,
  };
}

/** The action id: the EIP-712 digest of the action (0x + 64 hex). */
export function ownerActionId(action: OwnerActionMessage, chainId?: number): Hex {
  return hashTypedData(ownerActionTypedData(action, chainId));
}

export async function signOwnerAction(
  action: OwnerActionMessage,
  ownerPrivateKey: Hex,
  chainId?: number,
): Promise<Hex> {
  return privateKeyToAccount(ownerPrivateKey).signTypedData(ownerActionTypedData(action, chainId));
}

/** Owner actions built here are valid for 50 minutes (the executor accepts at most 1 hour ahead). */
export const OWNER_ACTION_VALIDITY_SECONDS = 3000;

/**
 * A new owner action with a fresh random nonce and an expiry 50 minutes ahead. `amountMicro` is USDC
 * for a withdrawal and PAPER for stake/unstake (both 6 decimals); a withdrawal goes to the wallet
 * itself unless `to` says otherwise (which the executor refuses).
 */
export function newOwnerAction(
  kind: OwnerActionMessage['kind'],
  wallet: string,
  options: { amountMicro?: bigint; to?: string; now?: number } = {},
): OwnerActionMessage {
  const now = options.now ?? Date.now();
  const random = globalThis.crypto.getRandomValues(new Uint32Array(2));
  const base = {
    wallet: wallet.toLowerCase() as Hex,
    nonce: (BigInt(now) << 64n) | (BigInt(random[0]!) << 32n) | BigInt(random[1]!),
    expiresAt: BigInt(Math.floor(now / 1000) + OWNER_ACTION_VALIDITY_SECONDS),
  };
  if (kind === 'claim_rewards') return { kind, message: base };
  const amountMicro = options.amountMicro ?? 0n;
  if (kind === 'withdraw')
    return { kind, message: { ...base, to: (options.to ?? wallet).toLowerCase() as Hex, amountMicro } };
  return { kind, message: { ...base, amountMicro } };
}

/** The action's message with its integers as decimal strings (JSON and the queue payload). */
export function ownerActionMessageStrings(action: OwnerActionMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(action.message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : String(v)]),
  );
}

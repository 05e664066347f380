import type { GuardrailsPayload } from '@paper/contracts';
import { approvalFromGuardrails, approvalTypedData, type SessionKeyApproval } from '@paper/exchange-signing';

const EIP712_DOMAIN = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

export function approvalFor(
  wallet: string,
  sessionKey: string,
  guardrails: GuardrailsPayload,
  expiresAt: Date,
): SessionKeyApproval {
  return approvalFromGuardrails(wallet, sessionKey, guardrails, BigInt(Math.floor(expiresAt.getTime() / 1000)));
}

/**
 * The approval as `eth_signTypedData_v4` expects it: EIP712Domain spelled out (browser wallets need it)
 * and integers as decimal strings (JSON has no bigint).
 */
export function browserTypedData(approval: SessionKeyApproval): unknown {
  const typed = approvalTypedData(approval);
  return JSON.parse(
    JSON.stringify({ ...typed, types: { EIP712Domain: EIP712_DOMAIN, ...typed.types } }, (_key, value: unknown) =>
      typeof value === 'bigint' ? value.toString() : value,
    ),
  );
}

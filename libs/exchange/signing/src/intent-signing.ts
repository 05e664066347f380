import { hashTypedData, type Hex, recoverTypedDataAddress } from 'viem';
import { DigestSignatureVerifier } from './digest-signature.verifier';
import { intentDigest } from './intent-digest';
import { privateKeyToAccount } from 'viem/accounts';
import {
  exchangeDomain,
  INTENT_TYPES,
  type IntentMessage,
  PRIMARY_TYPE,
  SESSION_KEY_APPROVAL_TYPES,
  type SessionKeyApproval,
} from './typed-data';

/** The intent id: the EIP-712 digest of the intent (0x + 64 hex). */
export function intentId(intent: IntentMessage, chainId?: number): Hex {
  return intentDigest(intent, chainId);
}

export async function signIntent(intent: IntentMessage, sessionPrivateKey: Hex, chainId?: number): Promise<Hex> {
  const account = privateKeyToAccount(sessionPrivateKey);
  return account.signTypedData({
    domain: exchangeDomain(chainId),
    types: INTENT_TYPES,
    primaryType: PRIMARY_TYPE[intent.kind],
    message: intent.message as never,
  });
}

/** The address that signed the intent (compare with the approved session key). */
export async function recoverIntentSigner(intent: IntentMessage, signature: Hex, chainId?: number): Promise<Hex> {
  return recoverTypedDataAddress({
    domain: exchangeDomain(chainId),
    types: INTENT_TYPES,
    primaryType: PRIMARY_TYPE[intent.kind],
    message: intent.message as never,
    signature,
  });
}

/** The typed data a wallet owner signs to approve a session key (for eth_signTypedData_v4). */
export function approvalTypedData(approval: SessionKeyApproval, chainId?: number) {
  return {
    domain: exchangeDomain(chainId),
    types: SESSION_KEY_APPROVAL_TYPES,
    primaryType: 'SessionKeyApproval' as const,
    message: approval,
  };
}

export async function signApproval(approval: SessionKeyApproval, ownerPrivateKey: Hex, chainId?: number): Promise<Hex> {
  return privateKeyToAccount(ownerPrivateKey).signTypedData(approvalTypedData(approval, chainId));
}

const approvals = new DigestSignatureVerifier();

/** True when the approval was signed by the wallet it names (ecrecover of the EIP-712 digest). */
export async function verifyApproval(approval: SessionKeyApproval, signature: Hex, chainId?: number): Promise<boolean> {
  try {
    return approvals.verify(hashTypedData(approvalTypedData(approval, chainId)), signature, approval.wallet);
  } catch {
    return false;
  }
}

import type { SignedIntentPayload } from '@paper/contracts';
import { intentId, signedExpiryProblem } from '@paper/exchange-signing';
import type { Hex } from 'viem';
import { type IntentOutcome, refused, toIntentMessage } from '../intent-message';
import type { ClaimedIntentRow } from './intent-claim';
import { claimedPayload } from './intent-claim';

/** Checks that a signature over a digest was made by an address (the executor keeps one for every batch). */
export interface SignatureCheck {
  verify(digest: Hex, signature: Hex, address: string): boolean;
}

export type Admission = { ok: true; payload: SignedIntentPayload } | { ok: false; outcome: IntentOutcome };

export const EXPIRED_OUTCOME: IntentOutcome = {
  status: 'expired',
  reason: 'intent_expired',
  message: 'The intent expired before it could run (intents are valid for 1 hour from when they are accepted, and never past their signed expiry); submit it again.',
};

/**
 * What a claimed intent must pass before it touches any account (CPU only, no database): a valid stored
 * payload, an id that is the EIP-712 digest of the message, the session key's signature over it, and the
 * validity window (signed expiry, and at most 1 hour since it was accepted).
 */
export function admit(row: ClaimedIntentRow, signatures: SignatureCheck, now: Date): Admission {
  const payload = claimedPayload(row);
  if (!payload) return { ok: false, outcome: refused('bad_intent', 'The stored intent is not a valid signed intent; build and sign it again.') };
  const digest = intentId(toIntentMessage(payload));
  if (digest !== row.id) {
    return { ok: false, outcome: refused('bad_intent_id', 'The intent id does not match the signed intent; build and sign the intent again.') };
  }
  // The intent id is the EIP-712 digest the session key signed.
  if (!signatures.verify(digest, payload.signature as Hex, payload.sessionKey)) {
    return { ok: false, outcome: refused('bad_signature', 'The intent signature does not match the session key; sign the intent with the approved session key.') };
  }
  const problem = signedExpiryProblem(payload.message.expiresAt, row.created_at.getTime(), now);
  if (problem === 'expired') return { ok: false, outcome: EXPIRED_OUTCOME };
  if (problem === 'too_far') {
    return { ok: false, outcome: refused('intent_expiry_too_far', 'The intent expires more than 1 hour from now; sign it again with an expiry within the hour.') };
  }
  return { ok: true, payload };
}

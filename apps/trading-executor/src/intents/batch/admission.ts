import type { SignedIntentPayload } from '@paper/contracts';
import { intentId, signedExpiryProblem } from '@paper/exchange-signing';
import type { Hex } from 'viem';
import type { SignatureItem } from './signature-checks';
import { type IntentOutcome, refused, toIntentMessage } from '../intent-message';
import type { ClaimedIntentRow } from './intent-claim';
import { claimedPayload } from './intent-claim';

/** Checks signatures over digests (the executor keeps one for every batch; see SignatureChecks). */
export interface SignatureCheck {
  verifyAll(items: readonly SignatureItem[]): Promise<boolean[]>;
}

export type Admission = { ok: true; payload: SignedIntentPayload } | { ok: false; outcome: IntentOutcome };

export const EXPIRED_OUTCOME: IntentOutcome = {
  status: 'expired',
  reason: 'intent_expired',
  message:
    'The intent expired before it could run (intents are valid for 1 hour from when they are accepted, and never ' +
    'past their signed expiry); submit it again.',
};

/**
 * What the claimed intents must pass before they touch any account (no database): a valid stored
 * payload, an id that is the EIP-712 digest of the message, the session key's signature over it (all
 * signatures of the batch checked together), and the validity window (signed expiry, and at most 1 hour
 * since it was accepted).
 */
export async function admitAll(
  rows: readonly ClaimedIntentRow[],
  signatures: SignatureCheck,
  now: Date,
): Promise<Admission[]> {
  type Parsed = { ok: true; payload: SignedIntentPayload; digest: Hex };
  const checked = rows.map((row): Parsed | Extract<Admission, { ok: false }> => {
    const payload = claimedPayload(row);
    if (!payload)
      return {
        ok: false,
        outcome: refused('bad_intent', 'The stored intent is not a valid signed intent; build and sign it again.'),
      };
    const digest = intentId(toIntentMessage(payload));
    if (digest !== row.id) {
      return {
        ok: false,
        outcome: refused(
          'bad_intent_id',
          'The intent id does not match the signed intent; build and sign the intent again.',
        ),
      };
    }
    return { ok: true, payload, digest };
  });
  const toVerify = checked.filter((c): c is Parsed => c.ok);
  // The intent id is the EIP-712 digest the session key signed.
  const valid = await signatures.verifyAll(
    toVerify.map((c): SignatureItem => [c.digest, c.payload.signature as Hex, c.payload.sessionKey]),
  );
  const signed = new Map(toVerify.map((c, i) => [c, valid[i] === true]));
  return checked.map((c, i) => {
    if (!c.ok) return c;
    if (!signed.get(c)) {
      return {
        ok: false,
        outcome: refused(
          'bad_signature',
          'The intent signature does not match the session key; sign the intent with the approved session key.',
        ),
      };
    }
    const problem = signedExpiryProblem(c.payload.message.expiresAt, rows[i]!.created_at.getTime(), now);
    if (problem === 'expired') return { ok: false, outcome: EXPIRED_OUTCOME };
    if (problem === 'too_far') {
      return {
        ok: false,
        outcome: refused(
          'intent_expiry_too_far',
          'The intent expires more than 1 hour from now; sign it again with an expiry within the hour.',
        ),
      };
    }
    return { ok: true, payload: c.payload };
  });
}

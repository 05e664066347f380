import type { IntentFinalStatus, IntentResult, SignedIntentPayload } from '@paper/contracts';
import type { IntentMessage } from '@paper/exchange-signing';
import type { Hex } from 'viem';

/** The signed EIP-712 message of a queued intent, with its integers back as bigint. */
export function toIntentMessage(payload: SignedIntentPayload): IntentMessage {
  const m = payload.message;
  switch (payload.kind) {
    case 'open': {
      const o = payload.message;
      return {
        kind: 'open',
        message: {
          wallet: o.wallet as Hex,
          market: o.market,
          side: o.side,
          marginMicro: BigInt(o.marginMicro),
          leverage: o.leverage,
          nonce: BigInt(o.nonce),
          expiresAt: BigInt(o.expiresAt),
        },
      };
    }
    case 'close': {
      const c = payload.message;
      return {
        kind: 'close',
        message: {
          wallet: c.wallet as Hex,
          positionIds: c.positionIds.map((id) => BigInt(id)),
          nonce: BigInt(c.nonce),
          expiresAt: BigInt(c.expiresAt),
        },
      };
    }
    case 'cancel': {
      const c = payload.message;
      return {
        kind: 'cancel',
        message: {
          wallet: c.wallet as Hex,
          intentId: c.intentId as Hex,
          nonce: BigInt(m.nonce),
          expiresAt: BigInt(c.expiresAt),
        },
      };
    }
  }
}

/** What a handler decided; the service turns it into the stored {@link IntentResult}. */
export interface IntentOutcome {
  status: IntentFinalStatus;
  reason: string | null;
  message: string;
  opened?: IntentResult['opened'];
  closed?: IntentResult['closed'];
  cancelledIntentId?: string;
}

export function refused(reason: string, message: string): IntentOutcome {
  return { status: 'refused', reason, message };
}

export function toResult(payload: SignedIntentPayload, outcome: IntentOutcome, at: Date): IntentResult {
  return toResultOf(payload.intentId.toLowerCase(), payload.kind, payload.message.wallet.toLowerCase(), outcome, at);
}

/** The stored result of an intent (lower-case id and wallet). */
export function toResultOf(
  intentId: string,
  kind: IntentResult['kind'],
  wallet: string,
  outcome: IntentOutcome,
  at: Date,
): IntentResult {
  const result: IntentResult = {
    intentId,
    kind,
    wallet,
    status: outcome.status,
    reason: outcome.reason,
    message: outcome.message,
    executedAt: at.toISOString(),
  };
  if (outcome.opened) result.opened = outcome.opened;
  if (outcome.closed) result.closed = outcome.closed;
  if (outcome.cancelledIntentId) result.cancelledIntentId = outcome.cancelledIntentId;
  return result;
}

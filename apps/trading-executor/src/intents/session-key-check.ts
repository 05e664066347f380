import type { Guardrails } from '@paper/exchange';
import { approvalFromGuardrails, verifyApproval } from '@paper/exchange-signing';
import type { Hex } from 'viem';
import type { SessionKeyApprovalRow } from '@paper/exchange-data';
import { type IntentOutcome, refused } from './intent-message';

/**
 * Remembers approvals that verified (the signature covers key, wallet, guardrails and expiry, so a
 * verified triple never changes its answer); bounded so it cannot grow without limit.
 */
export class ApprovalCache {
  private readonly verified = new Set<string>();

  constructor(private readonly max = 10_000) {}

  async verify(row: SessionKeyApprovalRow): Promise<boolean> {
    const expiresAt = BigInt(Math.floor(row.expires_at.getTime() / 1000));
    const key = `${row.address}|${row.wallet}|${row.approval_signature}|${expiresAt}|${JSON.stringify(row.guardrails)}`;
    if (this.verified.has(key)) return true;
    const ok = await verifyApproval(
      approvalFromGuardrails(row.wallet, row.address, row.guardrails, expiresAt),
      row.approval_signature as Hex,
    );
    if (ok) {
      if (this.verified.size >= this.max) this.verified.clear();
      this.verified.add(key);
    }
    return ok;
  }
}

export type SessionKeyCheck = { ok: true; guardrails: Guardrails } | { ok: false; outcome: IntentOutcome };

/** The session key must be approved for the wallet, not revoked, not expired, and its approval must verify. */
export async function checkSessionKey(
  row: SessionKeyApprovalRow | undefined,
  wallet: string,
  cache: ApprovalCache,
  now: Date,
): Promise<SessionKeyCheck> {
  if (!row || row.wallet !== wallet) {
    return fail(
      'session_key_unknown',
      'This session key is not approved for this wallet; connect again and approve a trading session.',
    );
  }
  if (row.revoked_at) {
    return fail(
      'session_key_revoked',
      'The wallet owner revoked this trading session; approve a new session to keep trading.',
    );
  }
  if (row.expires_at.getTime() <= now.getTime()) {
    return fail(
      'session_key_expired',
      `This trading session expired at ${row.expires_at.toISOString()}; approve a new session to keep trading.`,
    );
  }
  if (!(await cache.verify(row))) {
    return fail(
      'session_key_invalid',
      "The owner's approval of this session key does not verify; approve a new trading session.",
    );
  }
  const g = row.guardrails;
  return {
    ok: true,
    guardrails: {
      maxMarginPerTradeUsd: g.maxMarginPerTradeUsd,
      maxLeverage: g.maxLeverage,
      maxDailyNotionalUsd: g.maxDailyNotionalUsd,
      maxOpenPositions: g.maxOpenPositions,
      allowedMarkets: g.allowedMarkets,
      requireConfirmation: g.requireConfirmation,
    },
  };
}

function fail(reason: string, message: string): SessionKeyCheck {
  return { ok: false, outcome: refused(reason, message) };
}

import { queryAffected } from '@paper/sql-rows';
import { Injectable } from '@nestjs/common';
import type { JobPayload, SessionKeyResult } from '@paper/contracts';
import { SESSION_KEYS_QUEUE } from '@paper/contracts';
import {
  approvalFromGuardrails,
  depositProxyAddress,
  EXPIRY_SLACK_SECONDS,
  MAX_SESSION_KEY_TTL_SECONDS,
  verifyApproval,
} from '@paper/exchange-signing';
import { DataSource } from 'typeorm';
import type { Hex } from 'viem';
import { inTransaction } from '../database/sql-transaction';

type RegisterPayload = JobPayload<typeof SESSION_KEYS_QUEUE, 'register-session-key'>;
type RevokePayload = JobPayload<typeof SESSION_KEYS_QUEUE, 'revoke-session-key'>;

/**
 * Writes session keys approved by wallet owners (after verifying the owner's EIP-712 approval) and
 * creates the wallet's exchange account with its deterministic deposit proxy address.
 */
@Injectable()
export class SessionKeyService {
  constructor(private readonly dataSource: DataSource) {}

  async register(p: RegisterPayload, now = new Date()): Promise<SessionKeyResult> {
    const wallet = p.wallet.toLowerCase();
    const sessionKey = p.sessionKey.toLowerCase();
    const base = { wallet, sessionKey };
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const expiresAt = p.expiresAt.length > 12 ? Number.MAX_SAFE_INTEGER : Number(p.expiresAt);
    if (expiresAt <= nowSeconds) {
      return {
        ...base,
        status: 'refused',
        reason: 'session_key_expired',
        message: 'The approval has already expired; approve the session again.',
      };
    }
    if (expiresAt > nowSeconds + MAX_SESSION_KEY_TTL_SECONDS + EXPIRY_SLACK_SECONDS) {
      return {
        ...base,
        status: 'refused',
        reason: 'session_key_too_long',
        message: 'A trading session can last at most 30 days; approve it again with an earlier expiry.',
      };
    }
    const approval = approvalFromGuardrails(wallet, sessionKey, p.guardrails, BigInt(p.expiresAt));
    if (!(await verifyApproval(approval, p.approvalSignature as Hex))) {
      return {
        ...base,
        status: 'refused',
        reason: 'bad_approval_signature',
        message: 'The approval is not signed by the wallet owner; sign the approval with the wallet again.',
      };
    }
    const depositAddress = depositProxyAddress(wallet);
    return inTransaction(this.dataSource, async (sql) => {
      await sql(
        `INSERT INTO exchange.accounts (wallet, deposit_address) VALUES ($1, $2) ON CONFLICT (wallet) DO NOTHING`,
        [wallet, depositAddress],
      );
      await sql(`SELECT wallet FROM exchange.accounts WHERE wallet = $1 FOR UPDATE`, [wallet]);
      const { rows } = await sql<{ wallet: string; revoked_at: Date | null }>(
        `SELECT wallet, revoked_at FROM exchange.session_keys WHERE address = $1 FOR UPDATE`,
        [sessionKey],
      );
      const existing = rows[0];
      if (existing && existing.wallet !== wallet) {
        return {
          ...base,
          status: 'refused',
          reason: 'session_key_taken',
          message: 'This session key already belongs to another wallet; generate a new session key.',
        };
      }
      if (existing?.revoked_at) {
        return {
          ...base,
          status: 'refused',
          reason: 'session_key_revoked',
          message: 'This session key was revoked and cannot be approved again; generate a new session key.',
        };
      }
      await sql(
        `INSERT INTO exchange.session_keys (address, wallet, guardrails, expires_at, approval_signature, label)
         VALUES ($1, $2, $3, to_timestamp($4::double precision), $5, $6)
         ON CONFLICT (address) DO UPDATE SET guardrails = EXCLUDED.guardrails, expires_at = EXCLUDED.expires_at,
                approval_signature = EXCLUDED.approval_signature, label = EXCLUDED.label`,
        [sessionKey, wallet, JSON.stringify(p.guardrails), expiresAt, p.approvalSignature.toLowerCase(), p.label],
      );
      return {
        ...base,
        status: 'registered' as const,
        reason: null,
        message: `Session key approved until ${new Date(expiresAt * 1000).toISOString()}.`,
        depositAddress,
        expiresAt: new Date(expiresAt * 1000).toISOString(),
      };
    });
  }

  async revoke(p: RevokePayload): Promise<SessionKeyResult> {
    const wallet = p.wallet.toLowerCase();
    const sessionKey = p.sessionKey.toLowerCase();
    const revoked = await queryAffected(
      this.dataSource,
      `UPDATE exchange.session_keys SET revoked_at = coalesce(revoked_at, now()) WHERE address = $1 AND wallet = $2
         RETURNING address`,
      [sessionKey, wallet],
    );
    if (revoked === 0) {
      return {
        wallet,
        sessionKey,
        status: 'not_found',
        reason: 'session_key_unknown',
        message: 'No such session key for this wallet.',
      };
    }
    return {
      wallet,
      sessionKey,
      status: 'revoked',
      reason: null,
      message: 'Session key revoked; intents it signs are refused from now on.',
    };
  }
}

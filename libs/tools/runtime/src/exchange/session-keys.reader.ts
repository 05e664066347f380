import { Inject, Injectable } from '@nestjs/common';
import { guardrailsSchema } from '@paper/contracts';
import { DEFAULT_GUARDRAILS, type Guardrails } from '@paper/exchange';
import { type SessionKeyRow, sessionKeyRow, sessionKeyRows } from '@paper/exchange-data';
import { DataSource } from 'typeorm';

export interface SessionKeyInfo {
  address: string;
  wallet: string;
  label: string | null;
  expiresAt: Date;
  revokedAt: Date | null;
  guardrails: Guardrails;
  /** Not revoked and not expired. */
  active: boolean;
}

/** The guardrails as `data` shows them: USD limits as numbers, null = no limit. */
export function guardrailsData(g: Guardrails) {
  return {
    maxMarginPerTradeUsd: g.maxMarginPerTradeUsd === null ? null : Number(g.maxMarginPerTradeUsd),
    maxLeverage: g.maxLeverage,
    maxDailyNotionalUsd: g.maxDailyNotionalUsd === null ? null : Number(g.maxDailyNotionalUsd),
    maxOpenPositions: g.maxOpenPositions,
    allowedMarkets: g.allowedMarkets === null ? null : [...g.allowedMarkets],
    requireConfirmation: g.requireConfirmation,
  };
}

/** Session keys the exchange registered (after verifying the owner's approval), with their guardrails. */
@Injectable()
export class SessionKeysReader {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async forWallet(wallet: string, now = new Date()): Promise<SessionKeyInfo[]> {
    return (await sessionKeyRows(this.db, wallet)).map((r) => toInfo(r, now));
  }

  /** The key named by a token, if the exchange knows it for this wallet. */
  async find(wallet: string, address: string, now = new Date()): Promise<SessionKeyInfo | null> {
    const row = await sessionKeyRow(this.db, wallet, address);
    return row ? toInfo(row, now) : null;
  }
}

function toInfo(r: SessionKeyRow, now: Date): SessionKeyInfo {
  const expiresAt = new Date(r.expires_at);
  const revokedAt = r.revoked_at ? new Date(r.revoked_at) : null;
  const parsed = guardrailsSchema.safeParse(r.guardrails);
  return {
    address: r.address.toLowerCase(),
    wallet: r.wallet,
    label: r.label ?? null,
    expiresAt,
    revokedAt,
    guardrails: parsed.success ? parsed.data : DEFAULT_GUARDRAILS,
    active: revokedAt === null && expiresAt.getTime() > now.getTime(),
  };
}

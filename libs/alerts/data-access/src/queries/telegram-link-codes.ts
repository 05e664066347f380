import { type QueryExecutor, queryRow } from '@paper/sql-rows';

/** A single-use `/start <code>` code minted by POST /api/telegram/link. */
export interface TelegramLinkCodeRow {
  account_id: string;
  expires_at: Date;
  used_at: Date | null;
}

/** The code, locked (FOR UPDATE) until the caller's transaction ends so it is consumed once; undefined when unknown. */
export function lockTelegramLinkCode(db: QueryExecutor, code: string): Promise<TelegramLinkCodeRow | undefined> {
  return queryRow<TelegramLinkCodeRow>(
    db,
    `SELECT account_id, expires_at, used_at FROM alerts.telegram_link_codes WHERE code = $1 FOR UPDATE`,
    [code],
  );
}

/** Marks the code used (it never links again). */
export async function markTelegramLinkCodeUsed(db: QueryExecutor, code: string): Promise<void> {
  await db.query(`UPDATE alerts.telegram_link_codes SET used_at = now() WHERE code = $1`, [code]);
}

import { type QueryExecutor, queryRow, queryRows } from '@paper/sql-rows';
import type { ChannelStatus } from '../entities/channel.entity';

/** A Telegram channel: a chat of an account (at most one per account and chat). */
export interface TelegramChannelRow {
  id: string;
  status: ChannelStatus;
}

/** A Telegram chat to add to an account as a channel. */
export interface TelegramChannelWrite {
  id: string;
  accountId: string;
  chatId: string;
  label: string;
}

/** The account's channel for this chat, if it has one. */
export function telegramChannelOf(
  db: QueryExecutor,
  accountId: string,
  chatId: string,
): Promise<TelegramChannelRow | undefined> {
  return queryRow<TelegramChannelRow>(
    db,
    `SELECT id, status FROM alerts.channels WHERE account_id = $1 AND kind = 'telegram' AND target = $2`,
    [accountId, chatId],
  );
}

/** How many channels (of every kind) the account has. */
export async function channelCountOf(db: QueryExecutor, accountId: string): Promise<number> {
  const row = await queryRow<{ count: number }>(
    db,
    `SELECT count(*)::int AS count FROM alerts.channels WHERE account_id = $1`,
    [accountId],
  );
  return row?.count ?? 0;
}

/**
 * Adds the chat as an active channel, or makes its existing channel active again (e.g. after the bot was blocked and
 * unblocked); returns the channel's id.
 */
export async function activateTelegramChannel(db: QueryExecutor, channel: TelegramChannelWrite): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    `INSERT INTO alerts.channels (id, account_id, kind, target, label, status)
         VALUES ($1, $2, 'telegram', $3, $4, 'active')
         ON CONFLICT (account_id, target) WHERE kind = 'telegram'
         DO UPDATE SET status = 'active', disabled_reason = NULL, updated_at = now()
         RETURNING id`,
    [channel.id, channel.accountId, channel.chatId, channel.label],
  );
  return row!.id;
}

/** Adds the chat as an active channel unless the account already has one for it (whatever its status). */
export async function addTelegramChannel(db: QueryExecutor, channel: TelegramChannelWrite): Promise<void> {
  await db.query(
    `INSERT INTO alerts.channels (id, account_id, kind, target, label, status) VALUES ($1, $2, 'telegram', $3, $4, 'active')
       ON CONFLICT (account_id, target) WHERE kind = 'telegram' DO NOTHING`,
    [channel.id, channel.accountId, channel.chatId, channel.label],
  );
}

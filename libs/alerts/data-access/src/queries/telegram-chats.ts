import type { QueryExecutor } from '@paper/sql-rows';

/**
 * Serialises changes of one chat's binding (a per-chat advisory lock held until the caller's transaction
 * ends, so a repeated or concurrent `/start` never makes a second account). Pass the transaction's manager.
 */
export async function lockTelegramChat(db: QueryExecutor, chatId: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('alerts.telegram_chat:' || $1, 0))`, [chatId]);
}

/** Binds the chat to the account, with `userId` as its owner, in place of any account it was bound to. */
export async function bindTelegramChat(
  db: QueryExecutor,
  chatId: string,
  accountId: string,
  userId: string,
): Promise<void> {
  await db.query(
    `INSERT INTO alerts.telegram_chats (chat_id, account_id, owner_user_id) VALUES ($1, $2, $3)
       ON CONFLICT (chat_id) DO UPDATE SET account_id = EXCLUDED.account_id, owner_user_id = EXCLUDED.owner_user_id`,
    [chatId, accountId, userId],
  );
}

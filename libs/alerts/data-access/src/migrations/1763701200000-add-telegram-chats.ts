import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chats where the Telegram bot keeps an alerts account: the account the chat's commands act on and
 * the member who set it up (the only one who may change it). Deleting the account releases the chat.
 */
export class AddTelegramChats1763701200000 implements MigrationInterface {
  name = 'AddTelegramChats1763701200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alerts.telegram_chats (
        chat_id bigint PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES alerts.accounts(id) ON DELETE CASCADE,
        owner_user_id bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX telegram_chats_account_idx ON alerts.telegram_chats (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS alerts.telegram_chats`);
  }
}

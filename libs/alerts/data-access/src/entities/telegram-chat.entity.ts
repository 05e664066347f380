import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A Telegram chat bound to the alerts account its bot commands act on. Chat and user ids are bigints (read as strings).
 */
@Entity({ name: 'telegram_chats' })
export class TelegramChatEntity {
  @PrimaryColumn({ name: 'chat_id', type: 'bigint' })
  chatId!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ name: 'owner_user_id', type: 'bigint' })
  ownerUserId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

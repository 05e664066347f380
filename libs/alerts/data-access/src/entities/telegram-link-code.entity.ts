import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A single-use code that binds a Telegram chat to an account when sent to the bot as `/start <code>`. */
@Entity({ name: 'telegram_link_codes' })
export class TelegramLinkCodeEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  code!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

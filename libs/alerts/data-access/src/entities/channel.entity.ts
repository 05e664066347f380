import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type ChannelKind = 'discord' | 'webhook' | 'telegram';
/** `disabled` is set by delivery when the receiver is gone (410, unknown webhook, bot blocked) or fails for long. */
export type ChannelStatus = 'active' | 'paused' | 'disabled';

/**
 * A delivery channel. `target` is the Discord webhook URL, the webhook URL or the Telegram chat id;
 * it is a secret and only ever leaves the service masked. `secret` is a webhook's signing secret
 * (`previousSecret` the one a rotation replaced, still signing until it expires).
 */
@Entity({ name: 'channels' })
export class ChannelEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: ChannelKind;

  @Column({ type: 'text' })
  target!: string;

  @Column({ type: 'text', nullable: true })
  secret!: string | null;

  /** The secret a rotation replaced: it signs beside `secret` until `previousSecretExpiresAt`. */
  @Column({ name: 'previous_secret', type: 'text', nullable: true })
  previousSecret!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt!: Date | null;

  /** Since when its deliveries fail with no success since (null while healthy); see recordChannelFailure. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  /** Failed attempts since `failingSince`. */
  @Column({ name: 'failed_attempts', type: 'integer', default: 0 })
  failedAttempts!: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  label!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: ChannelStatus;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

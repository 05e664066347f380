import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * queued -> sending -> delivered; a failed attempt goes back to `failed` (retry scheduled at
 * next_attempt_at) and, when attempts run out or the receiver refuses for good, to `dead`.
 * `POST /api/deliveries/{id}/retry` moves a dead delivery back to `queued`.
 */
export type DeliveryStatus = 'queued' | 'sending' | 'delivered' | 'failed' | 'dead';

/** One alert to one channel; the row is the work item the dispatchers claim. */
@Entity({ name: 'deliveries' })
@Index(['alertId', 'channelId'], { unique: true })
export class DeliveryEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ name: 'alert_id', type: 'uuid' })
  alertId!: string;

  @Column({ name: 'channel_id', type: 'uuid' })
  channelId!: string;

  /** Copied from the alert: stays the same across attempts and re-queues. */
  @Column({ name: 'event_id', type: 'varchar', length: 128 })
  eventId!: string;

  @Column({ type: 'varchar', length: 16, default: 'queued' })
  status!: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** Rate-limited answers (429) so far: they wait as asked and do not count as attempts. */
  @Column({ name: 'rate_limited', type: 'integer', default: 0 })
  rateLimited!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

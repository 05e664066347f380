import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export const ALERT_KINDS = [
  'liquidation_risk',
  'position_opened',
  'position_closed',
  'position_liquidated',
  'balance_change',
  'session_key_expiring',
  'rewards',
  'mint_rate',
  'market_status',
  'channel_disabled',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/**
 * One alert of one account. `eventId` is the dedupe key (unique per account) and the id receivers see
 * on every delivery attempt of it.
 */
@Entity({ name: 'alerts' })
@Index(['accountId', 'eventId'], { unique: true })
export class AlertEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  /** The watch that produced it; null for protocol alerts or after the watch was deleted. */
  @Column({ name: 'watch_id', type: 'uuid', nullable: true })
  watchId!: string | null;

  @Column({ name: 'event_id', type: 'varchar', length: 128 })
  eventId!: string;

  @Column({ type: 'varchar', length: 32 })
  kind!: AlertKind;

  @Column({ type: 'varchar', length: 42, nullable: true })
  wallet!: string | null;

  /** Kind-specific facts (market, position id, amounts as decimal strings, ...). */
  @Column({ type: 'jsonb' })
  details!: Record<string, unknown>;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

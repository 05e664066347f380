import type { WalletRules, WatchRole } from '@paper/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A watched wallet of one account with its complete alert rules. Unique per (account, address, role). */
@Entity({ name: 'watches' })
@Index(['address'])
export class WatchEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  /** Lower-case 0x address. */
  @Column({ type: 'varchar', length: 42 })
  address!: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  role!: WatchRole | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  label!: string | null;

  @Column({ type: 'jsonb' })
  rules!: WalletRules;

  /** Alerts of the watch are recorded but not sent until then (null: not muted). */
  @Column({ name: 'muted_until', type: 'timestamptz', nullable: true })
  mutedUntil!: Date | null;

  /** At most one alert of the watch is sent to a channel per this many seconds (0: no cooldown). */
  @Column({ name: 'cooldown_s', type: 'integer', default: 0 })
  cooldownS!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

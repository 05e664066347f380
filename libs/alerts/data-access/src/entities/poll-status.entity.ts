import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The last scheduled poll per poll job (`wallets`, `protocol`), written by the poller. */
@Entity({ name: 'poll_status' })
export class PollStatusEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  name!: string;

  @Column({ name: 'last_started_at', type: 'timestamptz', nullable: true })
  lastStartedAt!: Date | null;

  @Column({ name: 'last_finished_at', type: 'timestamptz', nullable: true })
  lastFinishedAt!: Date | null;

  @Column({ name: 'last_ok', type: 'boolean', nullable: true })
  lastOk!: boolean | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'last_duration_ms', type: 'integer', nullable: true })
  lastDurationMs!: number | null;

  /** Per-job details of the last poll (counts, cursors), shown by the status endpoint. */
  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  details!: Record<string, unknown>;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A session key revoked here whose revocation the exchange has not confirmed yet (the record; the BullMQ job
 * only wakes trading-executor). The sweeper re-sends the job with backoff until the exchange confirms.
 */
@Entity({ name: 'pending_revocations' })
@Index('pending_revocations_due_idx', ['nextAttemptAt'], { where: 'confirmed_at IS NULL' })
export class PendingRevocationEntity {
  /** Lower-case 0x address of the revoked session key. */
  @PrimaryColumn({ name: 'session_key', type: 'varchar', length: 42 })
  sessionKey!: string;

  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  @Column({ name: 'grant_id', type: 'varchar', length: 255 })
  grantId!: string;

  @Column({ name: 'requested_at', type: 'timestamptz', default: () => 'now()' })
  requestedAt!: Date;

  /** Times the sweeper re-sent it. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  /** When the exchange confirmed the key revoked. */
  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt!: Date | null;
}

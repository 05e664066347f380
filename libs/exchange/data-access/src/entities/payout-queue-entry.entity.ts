import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from './column-types';

/**
 * Unpaid winnings waiting first-in-first-out (id order) until the harvest pays them, with the win fee
 * the LP could not pay at close (collected after the trader's part). An entry is settled (`paid_at`)
 * when both are zero.
 */
@Entity({ name: 'payout_queue' })
@Index('payout_queue_pending_idx', ['id'], { where: 'paid_at IS NULL' })
@Index(['wallet'])
export class PayoutQueueEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  @Column({ name: 'position_id', type: 'bigint' })
  positionId!: string;

  @Column({ name: 'original_micro', ...bigintColumn })
  originalMicro!: bigint;

  /** What is still owed to the trader. */
  @Column({ name: 'remaining_micro', ...bigintColumn })
  remainingMicro!: bigint;

  /** Win fee queued with the entry at close. */
  @Column({ name: 'fee_original_micro', ...bigintColumn, default: 0 })
  feeOriginalMicro!: bigint;

  /** Win fee still owed to protocol fees. */
  @Column({ name: 'fee_remaining_micro', ...bigintColumn, default: 0 })
  feeRemainingMicro!: bigint;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt!: Date | null;
}

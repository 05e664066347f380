import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn } from './column-types';

/**
 * A trader's exchange account, keyed by wallet address (lower-case). Balances are the cached totals of
 * the ledger (kept in the same transaction as the ledger entries): free, locked margin, queued payouts.
 */
@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn({ type: 'varchar', length: 42 })
  wallet!: string;

  @Column({ name: 'display_name', type: 'varchar', length: 64, nullable: true })
  displayName!: string | null;

  @Column({ name: 'deposit_address', type: 'varchar', length: 42, unique: true })
  depositAddress!: string;

  @Column({ type: 'boolean', default: false })
  activated!: boolean;

  @Column({ name: 'free_micro', ...bigintColumn, default: 0 })
  freeMicro!: bigint;

  @Column({ name: 'locked_micro', ...bigintColumn, default: 0 })
  lockedMicro!: bigint;

  @Column({ name: 'queued_micro', ...bigintColumn, default: 0 })
  queuedMicro!: bigint;

  /** PAPER held and not staked (micro-units). */
  @Column({ name: 'paper_micro', ...bigintColumn, default: 0 })
  paperMicro!: bigint;

  @Column({ name: 'staked_micro', ...bigintColumn, default: 0 })
  stakedMicro!: bigint;

  @Column({ name: 'realized_pnl_micro', ...bigintColumn, default: 0 })
  realizedPnlMicro!: bigint;

  @Column({ name: 'total_volume_micro', ...bigintColumn, default: 0 })
  totalVolumeMicro!: bigint;

  @Column({ name: 'fees_paid_micro', ...bigintColumn, default: 0 })
  feesPaidMicro!: bigint;

  /** Staking rewards credited, lifetime (claimed or not). */
  @Column({ name: 'staking_rewards_micro', ...bigintColumn, default: 0 })
  stakingRewardsMicro!: bigint;

  /** Staking rewards claimed into the free balance, lifetime (unclaimed = rewards - claimed). */
  @Column({ name: 'staking_claimed_micro', ...bigintColumn, default: 0 })
  stakingClaimedMicro!: bigint;

  @Column({ name: 'last_active_at', type: 'timestamptz', nullable: true })
  lastActiveAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

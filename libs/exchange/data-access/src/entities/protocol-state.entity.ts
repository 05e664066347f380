import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintColumn } from './column-types';

/** Singleton (id = 1): the house LP, parked losses, the reward high-water mark and protocol totals. */
@Entity({ name: 'protocol_state' })
export class ProtocolStateEntity {
  @PrimaryColumn({ type: 'smallint', default: 1 })
  id!: number;

  @Column({ name: 'trading_enabled', type: 'boolean', default: true })
  tradingEnabled!: boolean;

  @Column({ name: 'lp_micro', ...bigintColumn, default: 0 })
  lpMicro!: bigint;

  /** Losses parked while the payout queue is not empty; paid out by the harvest. */
  @Column({ name: 'parked_micro', ...bigintColumn, default: 0 })
  parkedMicro!: bigint;

  /** H: high-water mark of LP growth past 2,000,000 USDC (never decreases). */
  @Column({ name: 'reward_high_water_micro', ...bigintColumn, default: 0 })
  rewardHighWaterMicro!: bigint;

  @Column({ name: 'fees_micro', ...bigintColumn, default: 0 })
  feesMicro!: bigint;

  /** Win fees collected and not yet distributed to stakers (fees_micro is the lifetime total). */
  @Column({ name: 'fees_pending_micro', ...bigintColumn, default: 0 })
  feesPendingMicro!: bigint;

  /** LP above the cap swept out of the LP and not yet paid to stakers (nobody staked, or truncation remainders). */
  @Column({ name: 'staking_reserve_micro', ...bigintColumn, default: 0 })
  stakingReserveMicro!: bigint;

  /** Lifetime total of the staking reserve (LP excess) paid to stakers. */
  @Column({ name: 'swept_to_stakers_micro', ...bigintColumn, default: 0 })
  sweptToStakersMicro!: bigint;

  @Column({ name: 'paper_supply_micro', ...bigintColumn, default: 0 })
  paperSupplyMicro!: bigint;

  @Column({ name: 'lifetime_volume_micro', ...bigintColumn, default: 0 })
  lifetimeVolumeMicro!: bigint;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

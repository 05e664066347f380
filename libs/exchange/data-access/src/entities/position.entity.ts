import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from './column-types';
import type { MarketName } from '@paper/markets';

export type PositionStatus = 'open' | 'closed' | 'liquidated';

/**
 * A position; ids are digit strings (bigserial). Prices are integers at the market's price scale,
 * money is micro-USDC. Open positions are indexed by (market, side, bust price) for liquidation.
 */
@Entity({ name: 'positions' })
@Index('positions_open_bust_idx', ['market', 'side', 'bustPrice'], { where: `status = 'open'` })
@Index(['wallet', 'status'])
@Index(['closedAt'])
export class PositionEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  @Column({ type: 'varchar', length: 8 })
  market!: MarketName;

  @Column({ type: 'varchar', length: 5 })
  side!: 'long' | 'short';

  @Column({ name: 'margin_micro', ...bigintColumn })
  marginMicro!: bigint;

  @Column({ type: 'integer' })
  leverage!: number;

  @Column({ name: 'notional_micro', ...bigintColumn })
  notionalMicro!: bigint;

  @Column({ name: 'entry_price', ...bigintColumn })
  entryPrice!: bigint;

  @Column({ name: 'bust_price', ...bigintColumn })
  bustPrice!: bigint;

  @Column({ type: 'varchar', length: 10, default: 'open' })
  status!: PositionStatus;

  @Column({ name: 'exit_price', ...bigintColumn, nullable: true })
  exitPrice!: bigint | null;

  /** Settled PnL: payout after haircut and fee for a win, minus the loss for a loss. */
  @Column({ name: 'pnl_micro', ...bigintColumn, nullable: true })
  pnlMicro!: bigint | null;

  @Column({ name: 'fee_micro', ...bigintColumn, default: 0 })
  feeMicro!: bigint;

  /** Part of a win that the LP could not pay and that waits in the payout queue. */
  @Column({ name: 'queued_micro', ...bigintColumn, default: 0 })
  queuedMicro!: bigint;

  /** Part of the margin still backed by queued winnings (returns to "queued" on close). */
  @Column({ name: 'margin_queued_micro', ...bigintColumn, default: 0 })
  marginQueuedMicro!: bigint;

  @Column({ name: 'reward_minted_micro', ...bigintColumn, default: 0 })
  rewardMintedMicro!: bigint;

  @Column({ name: 'open_intent_id', type: 'varchar', length: 66, nullable: true })
  openIntentId!: string | null;

  @Column({ name: 'close_intent_id', type: 'varchar', length: 66, nullable: true })
  closeIntentId!: string | null;

  @Column({ name: 'opened_at', type: 'timestamptz' })
  openedAt!: Date;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;
}

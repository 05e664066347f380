import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn } from './column-types';

/** Daily protocol history (UTC days), rolled up by the executor. */
@Entity({ name: 'daily_stats' })
export class DailyStatsEntity {
  @PrimaryColumn({ type: 'date' })
  day!: string;

  @Column({ name: 'volume_micro', ...bigintColumn, default: 0 })
  volumeMicro!: bigint;

  @Column({ name: 'trader_pnl_micro', ...bigintColumn, default: 0 })
  traderPnlMicro!: bigint;

  @Column({ name: 'fees_micro', ...bigintColumn, default: 0 })
  feesMicro!: bigint;

  @Column({ type: 'integer', default: 0 })
  liquidations!: number;

  @Column({ name: 'liquidated_micro', ...bigintColumn, default: 0 })
  liquidatedMicro!: bigint;

  @Column({ type: 'integer', default: 0 })
  users!: number;

  @Column({ name: 'new_users', type: 'integer', default: 0 })
  newUsers!: number;

  @Column({ type: 'integer', default: 0 })
  trades!: number;

  @Column({ name: 'lp_micro', ...bigintColumn, default: 0 })
  lpMicro!: bigint;
}

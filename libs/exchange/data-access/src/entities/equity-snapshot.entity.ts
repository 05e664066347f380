import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn } from './column-types';

/** Periodic equity of each active account, for the portfolio history. */
@Entity({ name: 'equity_snapshots' })
export class EquitySnapshotEntity {
  @PrimaryColumn({ type: 'varchar', length: 42 })
  wallet!: string;

  @PrimaryColumn({ name: 'taken_at', type: 'timestamptz' })
  takenAt!: Date;

  @Column({ name: 'equity_micro', ...bigintColumn })
  equityMicro!: bigint;

  @Column({ name: 'free_micro', ...bigintColumn })
  freeMicro!: bigint;

  @Column({ name: 'locked_micro', ...bigintColumn })
  lockedMicro!: bigint;

  @Column({ name: 'unrealized_pnl_micro', ...bigintColumn })
  unrealizedPnlMicro!: bigint;
}

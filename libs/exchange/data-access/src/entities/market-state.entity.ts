import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn } from './column-types';
import type { MarketName } from '@paper/markets';

/** Per-market flags and open-interest caps (defaults come from the market config in @paper/exchange). */
@Entity({ name: 'markets' })
export class MarketStateEntity {
  @PrimaryColumn({ type: 'varchar', length: 8 })
  market!: MarketName;

  @Column({ type: 'varchar', length: 12, default: 'open' })
  status!: 'open' | 'paused' | 'close-only';

  @Column({ name: 'long_oi_cap_micro', ...bigintColumn, nullable: true })
  longOpenInterestCapMicro!: bigint | null;

  @Column({ name: 'short_oi_cap_micro', ...bigintColumn, nullable: true })
  shortOpenInterestCapMicro!: bigint | null;

  @Column({ name: 'long_oi_micro', ...bigintColumn, default: 0 })
  longOpenInterestMicro!: bigint;

  @Column({ name: 'short_oi_micro', ...bigintColumn, default: 0 })
  shortOpenInterestMicro!: bigint;
}

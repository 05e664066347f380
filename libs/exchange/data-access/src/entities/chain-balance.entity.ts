import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { uint256Column } from './column-types';

/** Simulated on-chain balances (paper mode) of wallets and deposit proxies: USDC in micro, ETH in wei. */
@Entity({ name: 'chain_balances' })
export class ChainBalanceEntity {
  @PrimaryColumn({ type: 'varchar', length: 42 })
  address!: string;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  asset!: 'USDC' | 'ETH';

  @Column({ name: 'amount', ...uint256Column, default: 0 })
  amount!: bigint;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from './column-types';

/** A sweep of funds from a wallet's deposit proxy into its exchange balance (or a refusal). */
@Entity({ name: 'deposits' })
@Index(['wallet', 'createdAt'])
export class DepositEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  @Column({ name: 'proxy_address', type: 'varchar', length: 42 })
  proxyAddress!: string;

  @Column({ name: 'amount_micro', ...bigintColumn })
  amountMicro!: bigint;

  @Column({ name: 'fee_micro', ...bigintColumn, default: 0 })
  feeMicro!: bigint;

  @Column({ type: 'varchar', length: 10 })
  status!: 'credited' | 'refused';

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

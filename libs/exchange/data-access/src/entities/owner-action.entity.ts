import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintColumn } from './column-types';

export type OwnerActionKind = 'withdraw' | 'stake' | 'unstake' | 'claim_rewards';

/**
 * An owner action (withdraw, stake, unstake, claim staking rewards) signed with EIP-712 by the wallet
 * itself, never by a session key; id = the EIP-712 digest. Recorded with its result when the executor
 * runs it (a redelivered job returns the record).
 */
@Entity({ name: 'owner_actions' })
@Index(['wallet', 'createdAt'])
export class OwnerActionEntity {
  @PrimaryColumn({ type: 'varchar', length: 66 })
  id!: string;

  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: OwnerActionKind;

  /** The signed message (decimal strings for amounts). */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 132 })
  signature!: string;

  @Column({ type: 'varchar', length: 10 })
  status!: 'executed' | 'refused';

  @Column({ type: 'varchar', length: 48, nullable: true })
  reason!: string | null;

  @Column({ type: 'text' })
  message!: string;

  /** USDC withdrawn or claimed, or PAPER staked or unstaked (micro-units; 0 when refused). */
  @Column({ name: 'amount_micro', ...bigintColumn, default: 0 })
  amountMicro!: bigint;

  @Column({ type: 'jsonb' })
  result!: Record<string, unknown>;

  /** When the action was submitted (the job's timestamp). */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'executed_at', type: 'timestamptz' })
  executedAt!: Date;
}

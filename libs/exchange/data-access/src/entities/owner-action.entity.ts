import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintColumn } from './column-types';

export type OwnerActionKind = 'withdraw' | 'stake' | 'unstake' | 'claim_rewards';

/**
 * An owner action (withdraw, stake, unstake, claim staking rewards) signed with EIP-712 by the wallet
 * itself, never by a session key; id = the EIP-712 digest. Written `queued` when it is accepted; the
 * executor runs it and stores the result in the same row (a redelivered job returns the record).
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
  status!: 'queued' | 'executed' | 'refused';

  @Column({ type: 'varchar', length: 48, nullable: true })
  reason!: string | null;

  @Column({ type: 'text', nullable: true })
  message!: string | null;

  /** USDC withdrawn or claimed, or PAPER staked or unstaked (micro-units; 0 when refused). */
  @Column({ name: 'amount_micro', ...bigintColumn, default: 0 })
  amountMicro!: bigint;

  @Column({ type: 'jsonb', nullable: true })
  result!: Record<string, unknown> | null;

  /** When the action was accepted. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'executed_at', type: 'timestamptz', nullable: true })
  executedAt!: Date | null;

  /** Executions that failed unexpectedly (rolled back); an action that keeps failing ends `refused`. */
  @Column({ type: 'smallint', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;
}

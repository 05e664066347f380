import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from './column-types';

/** Ledger buckets: an account's free balance, locked margin, queued payouts; or a protocol account. */
export type LedgerBucket =
  | 'free'
  | 'locked'
  | 'queued'
  | 'lp'
  | 'lp_parked'
  | 'fees'
  | 'payout_queue'
  | 'deposits'
  | 'activation_fees'
  | 'stakers';

/**
 * Double-entry ledger: every transfer is a set of entries sharing `txId` whose amounts sum to zero.
 * `owner` is a wallet for account buckets and `protocol` for protocol buckets.
 */
@Entity({ name: 'ledger_entries' })
@Index(['owner', 'createdAt'])
@Index(['txId'])
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'tx_id', type: 'uuid' })
  txId!: string;

  @Column({ type: 'varchar', length: 42 })
  owner!: string;

  @Column({ type: 'varchar', length: 24 })
  bucket!: LedgerBucket;

  @Column({ name: 'amount_micro', ...bigintColumn })
  amountMicro!: bigint;

  /** What moved the money: open, close, liquidation, payout, harvest, deposit, activation_fee, faucet... */
  @Column({ type: 'varchar', length: 32 })
  reason!: string;

  /** Position id, intent id or deposit id the entry belongs to. */
  @Column({ type: 'varchar', length: 80, nullable: true })
  ref!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

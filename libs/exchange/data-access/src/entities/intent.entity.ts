import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type IntentKind = 'open' | 'close' | 'cancel';
export type IntentStatus = 'queued' | 'executed' | 'refused' | 'cancelled' | 'expired';

/**
 * A signed trading intent (id = EIP-712 digest, 0x + 64 hex): the inbox. The tool API writes the row
 * (`queued`, with the signed message and signature) before it answers; the executor claims queued rows,
 * executes them and stores the final status and result in the same row and transaction.
 */
@Entity({ name: 'intents' })
@Index(['wallet', 'createdAt'])
export class IntentEntity {
  @PrimaryColumn({ type: 'varchar', length: 66 })
  id!: string;

  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  @Column({ type: 'varchar', length: 8 })
  kind!: IntentKind;

  /** The signed message (decimal strings for amounts). */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ name: 'session_key', type: 'varchar', length: 42 })
  sessionKey!: string;

  @Column({ type: 'varchar', length: 132 })
  signature!: string;

  @Column({ type: 'varchar', length: 10 })
  status!: IntentStatus;

  /** Refusal code when refused (insufficient_balance, guardrail_*, expired, bad_signature, ...). */
  @Column({ type: 'varchar', length: 48, nullable: true })
  reason!: string | null;

  @Column({ type: 'text', nullable: true })
  message!: string | null;

  /** Execution result: position ids opened or closed with their settlement. */
  @Column({ type: 'jsonb', nullable: true })
  result!: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'executed_at', type: 'timestamptz', nullable: true })
  executedAt!: Date | null;

  /** Executions that failed unexpectedly (rolled back); an intent that keeps failing ends `refused`. */
  @Column({ type: 'smallint', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An `Idempotency-Key` of an alerts API write (@paper/idempotency): per caller (`scope`, the account),
 * the request's fingerprint, and once answered its status and body. Pruned 24 hours after `created_at`.
 */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_keys_created_idx', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'text' })
  scope!: string;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ type: 'char', length: 64 })
  fingerprint!: string;

  @Column({ type: 'varchar', length: 16 })
  state!: 'running' | 'done';

  @Column({ type: 'integer', nullable: true })
  status!: number | null;

  @Column({ type: 'jsonb', nullable: true })
  body!: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

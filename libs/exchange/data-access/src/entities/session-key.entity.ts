import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A delegated session key approved by the wallet owner (EIP-712 signature over key, guardrails and
 * expiry). It may open, close and cancel; never withdraw, stake or claim. The private part lives
 * encrypted in the oauth schema and never leaves the backend.
 */
@Entity({ name: 'session_keys' })
@Index(['wallet'])
export class SessionKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 42 })
  address!: string;

  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  /** Guardrails as approved (see Guardrails in @paper/exchange; amounts as decimal USDC strings). */
  @Column({ type: 'jsonb' })
  guardrails!: Record<string, unknown>;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'approval_signature', type: 'varchar', length: 132 })
  approvalSignature!: string;

  /** Label of the client the key was approved for (OAuth client name). */
  @Column({ type: 'varchar', length: 120, nullable: true })
  label!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}

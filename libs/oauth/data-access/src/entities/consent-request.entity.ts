import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { StoredGuardrails } from './session-key-secret.entity';

/**
 * Progress of one consent interaction: the proven wallet, then the pending session key (encrypted) with the
 * guardrails and expiry the owner is asked to sign. Moved to session_key_secrets once approved.
 */
@Entity({ name: 'consent_requests' })
export class ConsentRequestEntity {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  uid!: string;

  @Column({ type: 'varchar', length: 42, nullable: true })
  wallet!: string | null;

  @Column({ name: 'session_key_address', type: 'varchar', length: 42, nullable: true })
  sessionKeyAddress!: string | null;

  @Column({ name: 'encrypted_private_key', type: 'text', nullable: true })
  encryptedPrivateKey!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  guardrails!: StoredGuardrails | null;

  @Column({ name: 'key_expires_at', type: 'timestamptz', nullable: true })
  keyExpiresAt!: Date | null;

  /** Set while an approval is being registered, so a second submission cannot race it. */
  @Column({ name: 'approving_until', type: 'timestamptz', nullable: true })
  approvingUntil!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}

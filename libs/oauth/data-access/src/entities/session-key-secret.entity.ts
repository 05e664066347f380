import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { MarketName } from '@paper/markets';

/** Guardrails as approved by the owner (decimal USDC strings, null = no limit). */
export interface StoredGuardrails {
  maxMarginPerTradeUsd: string | null;
  maxLeverage: number | null;
  maxDailyNotionalUsd: string | null;
  maxOpenPositions: number | null;
  allowedMarkets: MarketName[] | null;
  requireConfirmation: boolean;
}

/**
 * The private part of an approved session key, encrypted at rest (SessionKeyVault, AES-256-GCM). It never
 * leaves the backend: the tool API decrypts it only to sign the wallet's intents. One key per connection.
 */
@Entity({ name: 'session_key_secrets' })
@Index(['wallet', 'createdAt'])
@Index(['grantId'])
export class SessionKeySecretEntity {
  /** Lower-case 0x address of the session key. */
  @PrimaryColumn({ type: 'varchar', length: 42 })
  address!: string;

  /** Lower-case 0x address of the owner who approved it. */
  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  @Column({ name: 'encrypted_private_key', type: 'text' })
  encryptedPrivateKey!: string;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  /** The OAuth grant (connection) the key belongs to; its access tokens carry `session_key`. */
  @Column({ name: 'grant_id', type: 'varchar', length: 255 })
  grantId!: string;

  @Column({ type: 'jsonb' })
  guardrails!: StoredGuardrails;

  @Column({ type: 'varchar', length: 120, nullable: true })
  label!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}

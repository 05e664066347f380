import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One stored artefact of the authorization server (Client, Grant, AuthorizationCode, RefreshToken,
 * Session, Interaction, ...), keyed by its kind and id. The payload is the provider's own JSON.
 */
@Entity({ name: 'oidc_models' })
export class OidcModelEntity {
  @PrimaryColumn({ type: 'varchar', length: 48 })
  kind!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  id!: string;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ name: 'grant_id', type: 'varchar', length: 255, nullable: true })
  grantId!: string | null;

  @Column({ name: 'user_code', type: 'varchar', length: 255, nullable: true })
  userCode!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  uid!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;
}

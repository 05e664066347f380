import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Key material generated at first start in development (JWT signing keys, cookie keys) so every
 * replica shares it. Production configures OAUTH_JWKS and OAUTH_COOKIE_KEYS instead.
 */
@Entity({ name: 'signing_keys' })
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  @Column({ type: 'varchar', length: 16 })
  purpose!: 'jwt' | 'cookie';

  @Column({ type: 'jsonb' })
  material!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

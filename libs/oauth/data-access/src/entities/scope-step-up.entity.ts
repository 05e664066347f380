import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A client's request for scopes its connection lacks (refused 403 insufficient_scope by a resource server),
 * kept briefly: the client's next refresh of that connection is answered invalid_grant so that it starts a
 * new authorization where the owner can grant the scope. One row per client and wallet.
 */
@Entity({ name: 'scope_step_ups' })
export class ScopeStepUpEntity {
  @PrimaryColumn({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  /** The wallet (the OAuth account id). */
  @PrimaryColumn({ name: 'account_id', type: 'varchar', length: 255 })
  accountId!: string;

  /** The space-separated scopes the call needed. */
  @Column({ type: 'text' })
  scope!: string;

  @Column({ name: 'requested_at', type: 'timestamptz' })
  requestedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A subscription of the alerts service. Only the SHA-256 of its bearer token is stored. */
@Entity({ name: 'accounts' })
export class AlertsAccountEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** Hex SHA-256 of the bearer token. */
  @Column({ name: 'token_hash', type: 'char', length: 64, unique: true })
  tokenHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

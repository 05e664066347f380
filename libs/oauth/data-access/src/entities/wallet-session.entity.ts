import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A signed-in wallet owner on the consent and connections pages (cookie holds the token; id = its SHA-256). */
@Entity({ name: 'wallet_sessions' })
export class WalletSessionEntity {
  @PrimaryColumn({ type: 'char', length: 64 })
  id!: string;

  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}

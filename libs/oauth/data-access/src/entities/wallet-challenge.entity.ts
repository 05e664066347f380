import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A server-issued sign-in message (EIP-191) a wallet signs once to prove ownership. */
@Entity({ name: 'wallet_challenges' })
export class WalletChallengeEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** Lower-case 0x address the message was issued for. */
  @Column({ type: 'varchar', length: 42 })
  wallet!: string;

  @Column({ type: 'text' })
  message!: string;

  /** Set when the challenge belongs to a consent interaction. */
  @Column({ name: 'interaction_uid', type: 'varchar', length: 255, nullable: true })
  interactionUid!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;
}

import type { ProtocolRules } from '@paper/contracts';
import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Protocol-wide rules of one account (absent row = defaults). */
@Entity({ name: 'protocol_rules' })
export class ProtocolRulesEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ type: 'jsonb' })
  rules!: ProtocolRules;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

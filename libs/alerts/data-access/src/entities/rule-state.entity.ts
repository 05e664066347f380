import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** What the poller remembers per watch and rule between polls (last seen values, open episodes). */
@Entity({ name: 'rule_state' })
export class RuleStateEntity {
  @PrimaryColumn({ name: 'watch_id', type: 'uuid' })
  watchId!: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  rule!: string;

  @Column({ type: 'jsonb' })
  state!: Record<string, unknown>;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

import { Inject, Injectable } from '@nestjs/common';
import type { WalletRules } from '@paper/contracts';
import { DataSource } from 'typeorm';
import { RULE_STATE_KEYS, type RuleStates, type RuleStateKey, type WatchRow } from './watch-state';

/** Reads watches, rule states and the poll status document of the alerts schema. */
@Injectable()
export class WatchStore {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async watches(): Promise<WatchRow[]> {
    const rows = (await this.dataSource.query(`SELECT id, account_id, address, rules, created_at, updated_at FROM alerts.watches ORDER BY address, id`)) as {
      id: string;
      account_id: string;
      address: string;
      rules: WalletRules;
      created_at: Date;
      updated_at: Date;
    }[];
    return rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      address: r.address.toLowerCase(),
      rules: r.rules,
      createdAt: r.created_at,
      changedAt: r.updated_at > r.created_at ? r.updated_at : r.created_at,
    }));
  }

  async ruleStates(): Promise<Map<string, RuleStates>> {
    const rows = (await this.dataSource.query(`SELECT watch_id, rule, state FROM alerts.rule_state`)) as { watch_id: string; rule: string; state: unknown }[];
    const states = new Map<string, RuleStates>();
    for (const row of rows) {
      if (!(RULE_STATE_KEYS as readonly string[]).includes(row.rule)) continue;
      const entry = states.get(row.watch_id) ?? {};
      (entry as Record<RuleStateKey, unknown>)[row.rule as RuleStateKey] = row.state;
      states.set(row.watch_id, entry);
    }
    return states;
  }

  async pollDetails<T extends object>(name: string): Promise<Partial<T>> {
    const [row] = (await this.dataSource.query(`SELECT details FROM alerts.poll_status WHERE name = $1`, [name])) as { details: Partial<T> | null }[];
    return row?.details ?? {};
  }
}

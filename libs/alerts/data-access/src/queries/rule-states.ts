import { type QueryExecutor, queryRows } from '@paper/sql-rows';

/**
 * A stored rule state: the jsonb document one rule keeps between passes. `S` names the document of each
 * rule (the poller's rule states); a row is one of them, its `rule` telling which.
 */
export type RuleStateRow<S> = { [K in keyof S & string]: { watch_id: string; rule: K; state: S[K] } }[keyof S & string];

/** A protocol rule's state of one account (`alerts.protocol_rule_state`). */
export interface ProtocolRuleStateRow<T> {
  account_id: string;
  state: T;
}

/** A rule-state row to write (`state: null` deletes it). */
export interface StateWrite {
  scopeId: string;
  rule: string;
  state: object | null;
}

/** The stored states of every watch, of the rules in `rules` (rows of other rules are left out). */
export async function watchRuleStates<S>(
  db: QueryExecutor,
  rules: readonly (keyof S & string)[],
): Promise<RuleStateRow<S>[]> {
  const rows = await queryRows<RuleStateRow<S>>(db, `SELECT watch_id, rule, state FROM alerts.rule_state`);
  return rows.filter((r) => rules.includes(r.rule));
}

/** The mint-rate rule state of every account that has one. */
export function mintRateStates<T>(db: QueryExecutor): Promise<ProtocolRuleStateRow<T>[]> {
  return queryRows<ProtocolRuleStateRow<T>>(
    db,
    `SELECT account_id, state FROM alerts.protocol_rule_state WHERE rule = 'mint_rate'`,
  );
}

/** Where each scope keeps its states: per watch (wallet rules) or per account (protocol rules). */
const STATE_TABLES = {
  watch: { table: 'rule_state', key: 'watch_id', parent: 'watches' },
  account: { table: 'protocol_rule_state', key: 'account_id', parent: 'accounts' },
} as const;

/**
 * Upserts and deletes rule states of watches (`watch`) or accounts (`account`). States of a scope that
 * no longer exists (a watch deleted mid-pass) are skipped, not written.
 */
export async function writeRuleStates(
  db: QueryExecutor,
  scope: keyof typeof STATE_TABLES,
  writes: readonly StateWrite[],
): Promise<void> {
  const { table, key, parent } = STATE_TABLES[scope];
  const upserts = writes.filter((w) => w.state !== null);
  const deletes = writes.filter((w) => w.state === null);
  if (upserts.length > 0) {
    await db.query(
      `INSERT INTO alerts.${table} (${key}, rule, state, updated_at)
         SELECT x.scope, x.rule, x.state, now() FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS x(scope, rule, state)
          WHERE EXISTS (SELECT 1 FROM alerts.${parent} p WHERE p.id = x.scope)
         ON CONFLICT (${key}, rule) DO UPDATE SET state = EXCLUDED.state, updated_at = now()`,
      [upserts.map((w) => w.scopeId), upserts.map((w) => w.rule), upserts.map((w) => JSON.stringify(w.state))],
    );
  }
  if (deletes.length > 0) {
    await db.query(
      `DELETE FROM alerts.${table} t USING unnest($1::uuid[], $2::text[]) AS x(scope, rule) WHERE t.${key} = x.scope AND t.rule = x.rule`,
      [deletes.map((w) => w.scopeId), deletes.map((w) => w.rule)],
    );
  }
}

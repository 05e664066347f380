import type { ProtocolRules } from '@paper/contracts';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';

/** An `alerts.protocol_rules` row: one account's protocol rules. */
export interface ProtocolRulesRow {
  account_id: string;
  rules: ProtocolRules;
}

/** The protocol rules of the accounts that have at least one of them on (mint rate or market status). */
export function protocolRulesInUse(db: QueryExecutor): Promise<ProtocolRulesRow[]> {
  return queryRows<ProtocolRulesRow>(
    db,
    `SELECT account_id, rules FROM alerts.protocol_rules
        WHERE (rules->'mintRate'->>'enabled')::boolean OR (rules->'marketStatus'->>'enabled')::boolean`,
  );
}

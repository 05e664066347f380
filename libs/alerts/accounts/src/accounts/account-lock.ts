import type { EntityManager } from 'typeorm';

/** Serialises changes that are limited per account (count-then-insert) by locking the account row. */
export async function lockAccount(manager: EntityManager, accountId: string): Promise<void> {
  await manager.query('SELECT id FROM alerts.accounts WHERE id = $1 FOR UPDATE', [accountId]);
}

/** Drops undefined fields (class-transformer instances) so partial updates only carry what was sent. */
export function plain<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

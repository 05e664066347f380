import { lockAlertsAccount } from '@paper/alerts-data';
import type { EntityManager } from 'typeorm';

/** Serialises changes that are limited per account (count-then-insert) by locking the account row. */
export function lockAccount(manager: EntityManager, accountId: string): Promise<void> {
  return lockAlertsAccount(manager, accountId);
}

/** Drops undefined fields (class-transformer instances) so partial updates only carry what was sent. */
export function plain<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

import type { OwnerActionResult } from '@paper/contracts';
import {
  appendEvents,
  exchangeEvent,
  type NewExchangeEvent,
  type QueuedActionRow,
  storeOwnerActionResult,
} from '@paper/exchange-data';
import type { Sql } from '../database/sql-transaction';

/**
 * Stores the final result of an owner action in its row (the caller holds the row lock) and records it
 * in the event log: the action's outcome and, when executed, what it did.
 */
export async function storeResult(
  sql: Sql,
  row: Pick<QueuedActionRow, 'id' | 'wallet' | 'kind' | 'payload'>,
  result: OwnerActionResult,
  amountMicro: bigint,
): Promise<void> {
  if (await storeOwnerActionResult(sql, row.id, result, amountMicro))
    await appendEvents(sql, ownerActionEvents(row, result));
}

function ownerActionEvents(
  row: Pick<QueuedActionRow, 'id' | 'wallet' | 'kind' | 'payload'>,
  result: OwnerActionResult,
): NewExchangeEvent[] {
  const scope = { wallet: row.wallet };
  const base = { intentId: row.id, kind: row.kind };
  if (result.status === 'refused')
    return [
      exchangeEvent('intent.refused', { ...base, reason: result.reason ?? 'refused', message: result.message }, scope),
    ];
  const amount = Number(result.amount);
  const done = exchangeEvent('intent.executed', { ...base, message: result.message }, scope);
  switch (row.kind) {
    case 'withdraw':
      return [
        done,
        exchangeEvent(
          'withdrawal.completed',
          {
            amountUsd: amount,
            to: String((row.payload as { to?: string }).to ?? row.wallet).toLowerCase(),
            intentId: row.id,
          },
          scope,
        ),
      ];
    case 'stake':
      return [done, exchangeEvent('stake.staked', { amount, intentId: row.id }, scope)];
    case 'unstake':
      return [done, exchangeEvent('stake.unstaked', { amount, intentId: row.id }, scope)];
    default:
      return [done, exchangeEvent('rewards.claimed', { amountUsd: amount, intentId: row.id }, scope)];
  }
}

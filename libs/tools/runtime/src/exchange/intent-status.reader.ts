import { Inject, Injectable } from '@nestjs/common';
import type { IntentResult } from '@paper/contracts';
import { type IntentStatus, readIntents } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import { iso } from '../money/money-format';

export type { IntentStatus };

export interface IntentStatusView {
  intentId: string;
  status: IntentStatus;
  pending: boolean;
  kind: 'open' | 'close' | 'cancel';
  wallet: string;
  positionIds: string[];
  reason: string | null;
  message: string | null;
  submittedAt: string | null;
  executedAt: string | null;
  result: IntentResult | null;
}

/** Positions an intent opened or closed, from its stored result. */
export function resultPositionIds(result: IntentResult | null | undefined): string[] {
  if (!result) return [];
  if (result.opened) return [result.opened.positionId];
  return (result.closed ?? []).filter((c) => c.outcome === 'closed').map((c) => c.positionId);
}

/**
 * An intent's status from the exchange's inbox, the record of every accepted intent: queued until a
 * batch of the executor stores its final status (executed, refused, cancelled or expired) and result.
 */
@Injectable()
export class IntentStatusReader {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async find(intentId: string): Promise<IntentStatusView | null> {
    const [row] = await readIntents(this.db, [intentId]);
    if (!row) return null;
    const queued = row.status === 'queued';
    return {
      intentId: row.id,
      status: row.status,
      pending: queued,
      kind: row.kind,
      wallet: row.wallet,
      positionIds: resultPositionIds(row.result),
      reason: row.reason,
      message: queued ? 'The intent is accepted and waits for the exchange to execute it.' : row.message,
      submittedAt: iso(row.created_at),
      executedAt: iso(row.executed_at),
      result: row.result,
    };
  }
}

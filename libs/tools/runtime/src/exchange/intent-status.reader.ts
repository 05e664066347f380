import { Inject, Injectable } from '@nestjs/common';
import { INTENTS_QUEUE, type IntentResult, signedIntentSchema } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import { iso } from '../money/money-format';

export type IntentStatus = 'queued' | 'executed' | 'refused' | 'cancelled' | 'expired';

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

/** An intent's status: the exchange's record once it ran, else its job in the intents queue. */
@Injectable()
export class IntentStatusReader {
  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly queues: QueueRegistry,
  ) {}

  async find(intentId: string): Promise<IntentStatusView | null> {
    const id = intentId.toLowerCase();
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT id, kind, wallet, status, reason, message, result, created_at, executed_at FROM exchange.intents WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (row && row['status'] !== 'queued') {
      const result = (row['result'] as IntentResult | null) ?? null;
      return {
        intentId: id,
        status: row['status'] as IntentStatus,
        pending: false,
        kind: row['kind'] as IntentStatusView['kind'],
        wallet: String(row['wallet']),
        positionIds: resultPositionIds(result),
        reason: (row['reason'] as string | null) ?? null,
        message: (row['message'] as string | null) ?? null,
        submittedAt: iso(row['created_at'] as Date),
        executedAt: iso(row['executed_at'] as Date | null),
        result,
      };
    }
    const job = await this.queues.queue(INTENTS_QUEUE).getJob(id);
    const parsed = job ? signedIntentSchema.safeParse(job.data) : null;
    if (!job || !parsed?.success) return null;
    const state = await job.getState();
    const base = {
      intentId: id,
      kind: parsed.data.kind,
      wallet: parsed.data.message.wallet.toLowerCase(),
      submittedAt: new Date(job.timestamp).toISOString(),
    };
    if (state === 'completed' && job.returnvalue) {
      const result = job.returnvalue as IntentResult;
      return {
        ...base,
        status: result.status,
        pending: false,
        positionIds: resultPositionIds(result),
        reason: result.reason,
        message: result.message,
        executedAt: result.executedAt,
        result,
      };
    }
    if (state === 'failed') {
      return {
        ...base,
        status: 'refused',
        pending: false,
        positionIds: [],
        reason: 'execution_failed',
        message: `The exchange could not execute the intent (${job.failedReason ?? 'unknown error'}); nothing was changed. Submit it again.`,
        executedAt: null,
        result: null,
      };
    }
    return {
      ...base,
      status: 'queued',
      pending: true,
      positionIds: [],
      reason: null,
      message: state === 'active' ? 'The exchange is executing the intent right now.' : 'The intent is queued and waits for the exchange to execute it.',
      executedAt: null,
      result: null,
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { INTENTS_QUEUE, type SignedIntentPayload, signedIntentSchema } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { DataSource } from 'typeorm';

/** Jobs of the intents queue that have not run yet. */
export const WAITING_STATES = ['waiting', 'delayed', 'prioritized', 'waiting-children'] as const;
const SCAN_LIMIT = 1000;

export interface PendingIntent {
  intent: SignedIntentPayload;
  submittedAt: Date;
}

/**
 * Intents submitted but not executed yet: jobs still in the intents queue (the queue is their record
 * until the executor runs them) plus any the exchange recorded as queued.
 */
@Injectable()
export class PendingIntentsReader {
  constructor(
    private readonly queues: QueueRegistry,
    @Inject(DataSource) private readonly db: DataSource,
  ) {}

  async forWallet(wallet: string): Promise<PendingIntent[]> {
    const [jobs, rows] = await Promise.all([
      this.queues.queue(INTENTS_QUEUE).getJobs([...WAITING_STATES, 'active'], 0, SCAN_LIMIT - 1),
      this.db.query(
        `SELECT id, kind, payload, session_key, signature, created_at FROM exchange.intents WHERE wallet = $1 AND status = 'queued' ORDER BY created_at`,
        [wallet],
      ) as Promise<Record<string, unknown>[]>,
    ]);
    const found = new Map<string, PendingIntent>();
    for (const job of jobs) {
      const parsed = signedIntentSchema.safeParse(job?.data);
      if (!parsed.success || parsed.data.message.wallet.toLowerCase() !== wallet) continue;
      found.set(parsed.data.intentId, { intent: parsed.data, submittedAt: new Date(job.timestamp) });
    }
    for (const row of rows) {
      const id = String(row['id']);
      if (found.has(id)) continue;
      const parsed = signedIntentSchema.safeParse({
        kind: row['kind'],
        message: row['payload'],
        sessionKey: row['session_key'],
        signature: row['signature'],
        intentId: id,
      });
      if (parsed.success) found.set(id, { intent: parsed.data, submittedAt: new Date(row['created_at'] as string) });
    }
    return [...found.values()].sort((a, b) => a.submittedAt.getTime() - b.submittedAt.getTime());
  }
}

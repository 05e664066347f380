import { Inject, Injectable } from '@nestjs/common';
import { type SignedIntentPayload, signedIntentSchema } from '@paper/contracts';
import { queuedIntentsOf } from '@paper/exchange-data';
import { DataSource } from 'typeorm';

export interface PendingIntent {
  intent: SignedIntentPayload;
  submittedAt: Date;
}

/** Intents accepted but not executed yet: the wallet's queued rows of the exchange's inbox, oldest first. */
@Injectable()
export class PendingIntentsReader {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async forWallet(wallet: string): Promise<PendingIntent[]> {
    const rows = await queuedIntentsOf(this.db, wallet);
    const pending: PendingIntent[] = [];
    for (const row of rows) {
      const parsed = signedIntentSchema.safeParse({
        kind: row.kind,
        message: row.payload,
        sessionKey: row.session_key,
        signature: row.signature,
        intentId: row.id,
      });
      if (parsed.success) pending.push({ intent: parsed.data, submittedAt: row.created_at });
    }
    return pending;
  }
}

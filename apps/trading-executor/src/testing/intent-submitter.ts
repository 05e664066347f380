import type { IntentResult, SignedIntentPayload } from '@paper/contracts';
import { acceptIntents, readIntents } from '@paper/exchange-data';
import { IntentResultWaits } from '@paper/tools-runtime';
import type { DataSource } from 'typeorm';
import type { IntentEngine } from '../intents/intent-engine.service';

/** How long a test waits for an intent's result. */
const WAIT_MS = 30_000;

/**
 * Intents as the tool API hands them over (tests): accepted into the inbox (`exchange.intents`, the record
 * from then on), the engine woken, and the result awaited as the tool API awaits it (the executors' result
 * messages, the inbox when a message cannot arrive). A re-submission of the same signed intent is the
 * same intent and returns its stored result; a different payload under an id that is taken is refused and
 * never stored.
 */
export class IntentSubmitter {
  private readonly waits: IntentResultWaits;

  constructor(
    private readonly dataSource: DataSource,
    private readonly engine: IntentEngine,
    redis: { REDIS_URL: string; REDIS_PREFIX: string },
  ) {
    this.waits = new IntentResultWaits(redis, (ids) => finalResults(dataSource, ids));
  }

  /** Accepts a signed intent (if it is not yet) and waits for its final result. */
  async execute(payload: SignedIntentPayload): Promise<IntentResult> {
    const id = payload.intentId.toLowerCase();
    await this.waits.listen(WAIT_MS);
    const wait = this.waits.expect([id]);
    const [acceptance] = await acceptIntents(this.dataSource, [payload]);
    if (acceptance!.state === 'conflict') {
      wait.cancel();
      return {
        intentId: id,
        kind: payload.kind,
        wallet: payload.message.wallet.toLowerCase(),
        status: 'refused',
        reason: 'intent_id_conflict',
        message:
          'Another intent with this id was accepted with a different signed payload; build and sign the intent again.',
        executedAt: new Date().toISOString(),
      };
    }
    if (acceptance!.state === 'known' && acceptance.result) {
      wait.cancel();
      return acceptance.result;
    }
    return this.resultOf(id, wait);
  }

  /** Wakes the engine and waits for the final result of an accepted intent (run by any executor). */
  async settle(intentId: string): Promise<IntentResult> {
    const id = intentId.toLowerCase();
    await this.waits.listen(WAIT_MS);
    return this.resultOf(id, this.waits.expect([id]));
  }

  close(): Promise<void> {
    return this.waits.close();
  }

  /** A wake-up as the intents queue delivers it: a claim now, or after the batches running now. */
  private async resultOf(id: string, wait: ReturnType<IntentResultWaits['expect']>): Promise<IntentResult> {
    this.engine.claimAfterRunning();
    const result = (await wait.results(Date.now() + WAIT_MS)).get(id);
    if (!result) throw new Error(`intent ${id} is still queued after ${WAIT_MS} ms`);
    return result;
  }
}

async function finalResults(db: DataSource, ids: readonly string[]): Promise<Map<string, IntentResult>> {
  const rows = await readIntents(db, ids);
  return new Map(rows.filter((r) => r.status !== 'queued' && r.result).map((r) => [r.id, r.result!]));
}

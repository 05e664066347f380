import type { IntentResult, SignedIntentPayload } from '@paper/contracts';
import { acceptIntents } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import type { IntentEngine } from '../intents/intent-engine.service';

/**
 * Intents as the tool API hands them over (tests): accepted into the inbox (`exchange.intents`, the record
 * from then on), then run by the engine, whose result is awaited. A re-submission of the same signed
 * intent is the same intent and returns its stored result; a different payload under an id that is taken
 * is refused and never stored.
 */
export class IntentSubmitter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly engine: IntentEngine,
  ) {}

  /** Accepts a signed intent (if it is not yet) and waits for its final result. */
  async execute(payload: SignedIntentPayload): Promise<IntentResult> {
    const id = payload.intentId.toLowerCase();
    const [acceptance] = await acceptIntents(this.dataSource, [payload]);
    if (acceptance!.state === 'conflict') {
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
    if (acceptance!.state === 'known' && acceptance.result) return acceptance.result;
    const result = await this.engine.settle(id);
    if (!result) throw new Error(`intent ${id} was accepted but is not in the inbox`);
    return result;
  }
}

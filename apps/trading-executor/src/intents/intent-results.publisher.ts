import { Inject, Injectable, Logger } from '@nestjs/common';
import { type IntentResult, intentResultsChannel } from '@paper/contracts';
import { APP_CONFIG, REDIS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { TradingExecutorConfig } from '../config/trading-executor.config';

/**
 * Publishes the results of every committed batch on the intent-results channel (one message per batch),
 * where the tool API's waiters pick them up. Redis only shortens their wait: a message that cannot be
 * sent is dropped, and the waiters read the stored results from `exchange.intents`.
 */
@Injectable()
export class IntentResultsPublisher {
  private readonly logger = new Logger('IntentResults');
  private readonly channel: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: Pick<TradingExecutorConfig, 'REDIS_PREFIX'>,
  ) {
    this.channel = intentResultsChannel(config.REDIS_PREFIX);
  }

  publish(results: readonly IntentResult[]): void {
    if (results.length === 0) return;
    this.redis
      .publish(this.channel, JSON.stringify(results))
      .catch((error: Error) =>
        this.logger.debug(`results not published (waiters read them from the inbox): ${error.message}`),
      );
  }
}

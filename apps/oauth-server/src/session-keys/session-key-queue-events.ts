import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { SESSION_KEYS_QUEUE } from '@paper/contracts';
import { APP_CONFIG, bullConnection, type RedisSettings } from '@paper/nest-infra';
import { QueueEvents } from 'bullmq';

/** The events stream of the session-key queue (one connection per process): how the exchange's answers arrive. */
@Injectable()
export class SessionKeyQueueEvents implements OnApplicationShutdown {
  private readonly logger = new Logger('SessionKeyQueueEvents');
  private events?: QueueEvents;

  constructor(@Inject(APP_CONFIG) private readonly config: RedisSettings) {}

  get(): QueueEvents {
    if (!this.events) {
      this.events = new QueueEvents(SESSION_KEYS_QUEUE.queue, bullConnection(this.config));
      this.events.on('error', (error) => this.logger.warn(`queue events: ${error.message}`));
    }
    return this.events;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.events?.close();
  }
}

import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG, REDIS, RedisLease } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { StorageReadiness } from '../storage/storage-readiness.service';
import { TelegramApiError, TelegramBotClient } from './telegram-bot.client';
import { TelegramUpdates } from './telegram-updates.service';
import { type ChatTurn, turnsOf } from './update-batches';

const LEASE_MS = 90_000;

/**
 * Shortest time between two getUpdates calls that found nothing: a Bot API that answers at once (a timeout of 0,
 * a proxy that cuts long polls) is asked once a second instead of in a busy loop.
 */
export const IDLE_POLL_MS = 1000;

/**
 * Bot updates by long polling (TELEGRAM_UPDATES_MODE=polling): one replica at a time holds a Redis
 * lease and calls getUpdates; the offset lives in Redis so a restart or another replica continues
 * where it stopped. In webhook mode the webhook is registered instead (Telegram allows only one of the two).
 * The chats of a batch are answered side by side (each in order); a chat sending more than CHAT_BURST updates
 * in one batch has the rest ignored and is told so, so one chat's flood never holds up the others.
 */
@Injectable()
export class TelegramLongPoller implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(TelegramLongPoller.name);
  private readonly lease: RedisLease;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly bot: TelegramBotClient,
    private readonly updates: TelegramUpdates,
    private readonly storage: StorageReadiness,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
  ) {
    this.lease = new RedisLease(redis, this.key('poller'), LEASE_MS);
  }

  private key(name: string): string {
    return `${this.config.REDIS_PREFIX}:alerts:telegram:${name}`;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.bot.configured) return;
    if (
      this.config.TELEGRAM_UPDATES_MODE === 'webhook' &&
      this.config.TELEGRAM_WEBHOOK_URL &&
      this.config.TELEGRAM_WEBHOOK_SECRET
    ) {
      await this.bot
        .setWebhook(this.config.TELEGRAM_WEBHOOK_URL, this.config.TELEGRAM_WEBHOOK_SECRET)
        .catch((error: Error) => this.logger.warn(`setWebhook failed: ${error.message}`));
    }
    if (this.config.TELEGRAM_UPDATES_MODE === 'polling') this.loop = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.abort.abort();
    await this.loop;
    await this.lease.release();
  }

  private async pause(ms: number): Promise<void> {
    if (ms <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }

  /** One chat's updates of a batch, in order; updates it sent beyond the burst are answered with one notice. */
  private async take(turn: ChatTurn): Promise<void> {
    for (const update of turn.handle) await this.updates.process(update);
    if (turn.ignored > 0 && turn.chatId) await this.updates.floodNotice(turn.chatId, turn.ignored);
  }

  private async run(): Promise<void> {
    let leading = false;
    let failures = 0;
    while (!this.abort.signal.aborted) {
      try {
        // Updates wait in Telegram until the alerts schema is applied (alerts-api starts before it is).
        if (!(await this.storage.isReady()) || !(await this.lease.tryHold())) {
          leading = false;
          await this.pause(5000);
          continue;
        }
        if (!leading) {
          leading = true;
          await this.bot
            .deleteWebhook()
            .catch((error: Error) => this.logger.warn(`deleteWebhook failed: ${error.message}`));
        }
        const stored = await this.redis.get(this.key('offset'));
        const asked = Date.now();
        const batch = await this.bot.getUpdates(
          stored ? Number(stored) : undefined,
          this.config.TELEGRAM_POLL_TIMEOUT_S,
          this.abort.signal,
        );
        // On an outage every chat's turn has ended before the batch is fetched again.
        const turns = await Promise.allSettled(turnsOf(batch).map((turn) => this.take(turn)));
        const failed = turns.find((t): t is PromiseRejectedResult => t.status === 'rejected');
        if (failed) throw failed.reason;
        if (batch.length > 0) await this.redis.set(this.key('offset'), String(batch.at(-1)!.update_id + 1));
        failures = 0;
        if (batch.length === 0) await this.pause(IDLE_POLL_MS - (Date.now() - asked));
      } catch (error) {
        if (this.abort.signal.aborted) break;
        failures += 1;
        const retryAfter = error instanceof TelegramApiError && error.retryAfterS ? error.retryAfterS * 1000 : 0;
        this.logger.warn(`getUpdates failed: ${(error as Error).message}`);
        await this.pause(Math.max(retryAfter, Math.min(30_000, 500 * 2 ** Math.min(failures, 6))));
      }
    }
  }
}

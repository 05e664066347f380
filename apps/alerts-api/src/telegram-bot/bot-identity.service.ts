import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { TelegramBotClient } from './telegram-bot.client';
import { menuCommands } from './bot-commands';

/**
 * The bot's username (configured, or learnt with getMe) and its command menu: registered with
 * setMyCommands at start, retried with backoff until Telegram accepts it.
 */
@Injectable()
export class BotIdentity implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BotIdentity.name);
  private readonly abort = new AbortController();
  private learnt: string | undefined;
  private setup: Promise<void> | undefined;

  constructor(
    private readonly client: TelegramBotClient,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
  ) {}

  get username(): string | undefined {
    return this.config.TELEGRAM_BOT_USERNAME ?? this.learnt;
  }

  onApplicationBootstrap(): void {
    if (this.client.configured && this.config.TELEGRAM_UPDATES_MODE !== 'off') this.setup = this.register();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.abort.abort();
    await this.setup;
  }

  /** getMe (when no username is configured) and setMyCommands, until both succeed or the app stops. */
  async register(): Promise<void> {
    for (let attempt = 0; !this.abort.signal.aborted; attempt += 1) {
      try {
        if (!this.username) this.learnt = (await this.client.getMe()).username;
        await this.client.setMyCommands(menuCommands());
        return;
      } catch (error) {
        this.logger.warn(`registering the bot commands failed: ${(error as Error).message}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(60_000, 1000 * 2 ** attempt));
          this.abort.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
    }
  }
}

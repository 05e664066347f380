import { Inject, Injectable, Logger } from '@nestjs/common';
import { escapeTelegramHtml } from '@paper/alerts-delivery';
import { APP_CONFIG, isDependencyOutage, REDIS, unstorableTextPath } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { type LinkResult, TelegramLinkService } from '../telegram/telegram-link.service';
import { BotIdentity } from './bot-identity.service';
import { REPLY } from './bot-replies';
import { isForBot, parseCommand } from './command-parser';
import { chatLabel, LINK_REPLIES } from './link-replies';
import { TelegramApiError, TelegramBotClient, type TelegramUpdate } from './telegram-bot.client';
import { type BotOutcome, TelegramBot } from './telegram-bot.service';

export type UpdateOutcome = LinkResult | BotOutcome | 'duplicate' | 'unstorable' | 'failed';

/**
 * Handles bot updates from either source (webhook or long polling), crash-safe: an update is marked
 * handled (a Redis marker kept for a day) only after its change committed and the reply was sent. An
 * update seen again before that (a crash, a webhook redelivery, a long poll that had not stored its
 * offset) is handled again; `/start` and linking are idempotent, so a repeat creates nothing twice.
 * An outage of PostgreSQL or Redis leaves the update unmarked, so Telegram (webhook) or the long poller
 * delivers it again; any other error is logged and the update marked handled, so one bad update never
 * holds up the ones behind it. Text PostgreSQL cannot store (NUL) is refused before anything runs.
 */
@Injectable()
export class TelegramUpdates {
  private readonly logger = new Logger(TelegramUpdates.name);

  constructor(
    private readonly links: TelegramLinkService,
    private readonly bot: TelegramBot,
    private readonly identity: BotIdentity,
    private readonly client: TelegramBotClient,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
  ) {}

  async process(update: TelegramUpdate): Promise<UpdateOutcome> {
    if (!Number.isSafeInteger(update.update_id)) return 'ignored';
    const marker = `${this.config.REDIS_PREFIX}:alerts:telegram:update:${update.update_id}`;
    if ((await this.redis.exists(marker)) === 1) return 'duplicate';
    const outcome = await this.handle(update);
    await this.redis.set(marker, '1', 'EX', 86_400);
    return outcome;
  }

  /** Tells a chat that sent too many updates at once how many were ignored. */
  async floodNotice(chatId: string, ignored: number): Promise<void> {
    if (!this.client.configured) return;
    this.logger.warn(`Telegram chat ${chatId} sent too many updates at once: ${ignored} ignored`);
    await this.client.sendMessage(chatId, REPLY.flooded(ignored)).catch((error: Error) => {
      if (!(error instanceof TelegramApiError)) throw error;
      this.logger.warn(`reply to a Telegram update was not delivered: ${error.message}`);
    });
  }

  private async handle(update: TelegramUpdate): Promise<UpdateOutcome> {
    const unstorable = unstorableTextPath(update);
    if (unstorable) {
      this.logger.warn(
        `Telegram update ${update.update_id} ignored: "${unstorable}" contains a character that cannot be stored`,
      );
      return 'unstorable';
    }
    try {
      return await this.route(update);
    } catch (error) {
      if (isDependencyOutage(error)) throw error;
      this.logger.error(
        `Telegram update ${update.update_id} failed and is skipped: ${(error as Error).stack ?? String(error)}`,
      );
      return 'failed';
    }
  }

  private async route(update: TelegramUpdate): Promise<UpdateOutcome> {
    if (update.callback_query) return this.bot.onCallback(update.callback_query);
    const message = update.message;
    if (!message?.text) return 'ignored';
    const command = parseCommand(message.text);
    const code = command?.name === 'start' && isForBot(command, this.identity.username) ? command.args[0] : undefined;
    if (!code) return this.bot.onMessage(message);
    const chatId = String(message.chat.id);
    const userId = String(message.from?.id ?? message.chat.id);
    const handled = await this.links.redeem(code, { chatId, userId, label: chatLabel(message.chat) });
    // Not a link code (a deep link's ?start=ref_x, a typo): the chat is set up as by a plain /start.
    if (handled.result === 'unknown_code') return this.bot.onMessage(message);
    const reply = LINK_REPLIES[handled.result];
    if (this.client.configured) {
      await this.client.sendMessage(chatId, escapeTelegramHtml(reply)).catch((error: Error) => {
        if (!(error instanceof TelegramApiError)) throw error;
        this.logger.warn(`reply to a Telegram update was not delivered: ${error.message}`);
      });
    }
    return handled.result;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import {
  AlertsException,
  assertChannelRoom,
  hasChannelRoom,
  lockAccount,
  type TelegramChatRef,
  TelegramChatsService,
} from '@paper/alerts-accounts';
import {
  activateTelegramChannel,
  lockTelegramLinkCode,
  markTelegramLinkCodeUsed,
  TelegramLinkCodeEntity,
  telegramChannelOf,
} from '@paper/alerts-data';
import { ALERTS_LIMITS } from '@paper/alerts-delivery';
import { AlertsErrorCode } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, LessThan } from 'typeorm';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import type { TelegramLinkView } from './telegram-link.dto';

const CODE = /^[A-Za-z0-9_-]{1,64}$/;

export type LinkResult = 'linked' | 'already_linked' | 'unknown_code' | 'expired_code' | 'used_code' | 'limit_reached';

/**
 * Single-use Telegram link codes: minted by POST /api/telegram/link, redeemed when the bot receives
 * `/start <code>`.
 */
@Injectable()
export class TelegramLinkService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
    private readonly chats: TelegramChatsService,
  ) {}

  async mint(accountId: string): Promise<TelegramLinkView> {
    const bot = this.config.TELEGRAM_BOT_USERNAME;
    if (!bot || !this.config.TELEGRAM_BOT_TOKEN) {
      throw new AlertsException(
        AlertsErrorCode.TelegramNotConfigured,
        'Telegram delivery is not configured on this service; use a Discord or webhook channel.',
      );
    }
    await assertChannelRoom(this.dataSource, accountId);
    const repo = this.dataSource.getRepository(TelegramLinkCodeEntity);
    await repo.delete({ accountId, expiresAt: LessThan(new Date()) });
    const code = randomBytes(24).toString('base64url');
    const minutes = ALERTS_LIMITS.telegramLinkCodeMinutes;
    const expiresAt = new Date(Date.now() + minutes * 60_000);
    await repo.insert({ code, accountId, expiresAt, usedAt: null });
    return {
      code,
      deepLink: `https://t.me/${bot}?start=${code}`,
      botUsername: bot,
      expiresAt: expiresAt.toISOString(),
      instructions: `Send /start ${code} to @${bot} within ${minutes} minutes (or open the deep link). The code works once.`,
    };
  }

  /**
   * Consumes the code and binds the chat to its account as a telegram channel (re-activating it if it
   * was disabled, e.g. after the bot was blocked and unblocked), in one transaction. Idempotent for the
   * same chat and code: redeeming again finds the code used by this chat and answers `already_linked`
   * without a second channel.
   */
  async redeem(code: string, chat: TelegramChatRef): Promise<{ result: LinkResult; channelId?: string }> {
    if (!CODE.test(code)) return { result: 'unknown_code' };
    return this.dataSource.transaction(async (m) => {
      const row = await lockTelegramLinkCode(m, code);
      if (!row) return { result: 'unknown_code' as const };
      const existing = await telegramChannelOf(m, row.account_id, chat.chatId);
      if (row.used_at)
        return { result: existing ? ('already_linked' as const) : ('used_code' as const), channelId: existing?.id };
      if (row.expires_at.getTime() <= Date.now()) return { result: 'expired_code' as const };
      await lockAccount(m, row.account_id);
      if (!existing && !(await hasChannelRoom(m, row.account_id))) return { result: 'limit_reached' as const };
      await markTelegramLinkCodeUsed(m, code);
      const channelId = await activateTelegramChannel(m, {
        id: randomUUID(),
        accountId: row.account_id,
        chatId: chat.chatId,
        label: chat.label,
      });
      await this.chats.bind(m, chat.chatId, row.account_id, chat.userId);
      return { result: 'linked' as const, channelId };
    });
  }
}

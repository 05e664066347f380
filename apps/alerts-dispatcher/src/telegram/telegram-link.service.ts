import { Inject, Injectable } from '@nestjs/common';
import { TelegramChatsService } from '@paper/alerts-accounts';
import {
  activateTelegramChannel,
  channelCountOf,
  lockAlertsAccount,
  lockTelegramLinkCode,
  markTelegramLinkCodeUsed,
  telegramChannelOf,
} from '@paper/alerts-data';
import { ALERTS_LIMITS } from '@paper/alerts-delivery';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { TelegramChat, TelegramMessage } from './telegram-bot.client';

const CODE = /^[A-Za-z0-9_-]{1,64}$/;

export type LinkResult =
  'linked' | 'already_linked' | 'unknown_code' | 'expired_code' | 'used_code' | 'limit_reached' | 'ignored';

export const REPLIES: Record<Exclude<LinkResult, 'ignored'>, string> = {
  linked:
    'Linked. This chat now receives wallet alerts from your alerts account. Send /help for the commands. Alerts are best effort; this service is unofficial and not affiliated with the exchange.',
  already_linked: 'This chat is already linked to that alerts account.',
  unknown_code: `That code is not valid. Create a new one with POST /api/telegram/link and send /start <code> here within ${ALERTS_LIMITS.telegramLinkCodeMinutes} minutes.`,
  expired_code: `That code has expired (codes last ${ALERTS_LIMITS.telegramLinkCodeMinutes} minutes). Create a new one with POST /api/telegram/link.`,
  used_code: 'That code was already used. Create a new one with POST /api/telegram/link.',
  limit_reached:
    'That alerts account already has the maximum number of channels. Delete one through the alerts API, then create a new code.',
};

export function chatLabel(chat: TelegramChat): string {
  const name = chat.title ?? (chat.username ? `@${chat.username}` : chat.first_name) ?? `chat ${chat.id}`;
  return `Telegram ${name}`.slice(0, 100);
}

/**
 * `/start <code>`: consumes the single-use code minted by POST /api/telegram/link and binds the chat
 * to that account as a telegram channel (re-activating it if it was disabled, e.g. after the bot was
 * blocked and unblocked), in one transaction. Idempotent for the same chat and code: handling an
 * update again (after a crash, or a redelivery) finds the code used by this chat and answers
 * `already_linked` without a second channel.
 */
@Injectable()
export class TelegramLinkService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly chats: TelegramChatsService,
  ) {}

  /** `code` is the argument of `/start <code>` in `message`. */
  async handle(
    message: TelegramMessage,
    code: string,
  ): Promise<{ result: LinkResult; chatId?: string; channelId?: string }> {
    const chatId = String(message.chat.id);
    if (!CODE.test(code)) return { result: 'unknown_code', chatId };
    return this.dataSource.transaction(async (m) => {
      const row = await lockTelegramLinkCode(m, code);
      if (!row) return { result: 'unknown_code' as const, chatId };
      const existing = await telegramChannelOf(m, row.account_id, chatId);
      if (row.used_at)
        return {
          result: existing ? ('already_linked' as const) : ('used_code' as const),
          chatId,
          channelId: existing?.id,
        };
      if (row.expires_at.getTime() <= Date.now()) return { result: 'expired_code' as const, chatId };
      await lockAlertsAccount(m, row.account_id);
      if (!existing && (await channelCountOf(m, row.account_id)) >= ALERTS_LIMITS.channelsPerAccount)
        return { result: 'limit_reached' as const, chatId };
      await markTelegramLinkCodeUsed(m, code);
      const channelId = await activateTelegramChannel(m, {
        id: randomUUID(),
        accountId: row.account_id,
        chatId,
        label: chatLabel(message.chat),
      });
      await this.chats.bindIfFree(m, chatId, row.account_id, String(message.from?.id ?? message.chat.id));
      return { result: 'linked' as const, chatId, channelId };
    });
  }
}

import { ALERTS_LIMITS } from '@paper/alerts-delivery';
import type { LinkResult } from '../telegram/telegram-link.service';
import type { TelegramChat } from './telegram-bot.client';

/**
 * The bot's answer to `/start <code>`, by the outcome of redeeming the code (a payload that is no link code, e.g. a
 * deep link's `?start=ref_x`, is a plain `/start`).
 */
export const LINK_REPLIES: Record<Exclude<LinkResult, 'unknown_code'>, string> = {
  linked:
    'Linked. This chat now receives wallet alerts from your alerts account, and its commands (/list, /pause…) act ' +
    'on that account. Send /help for the commands. Alerts are best effort; this service is unofficial and not ' +
    'affiliated with the exchange.',
  already_linked: 'This chat is already linked to that alerts account.',
  expired_code: `That code has expired (codes last ${ALERTS_LIMITS.telegramLinkCodeMinutes} minutes). Create a new one with POST /api/telegram/link.`,
  used_code: 'That code was already used. Create a new one with POST /api/telegram/link.',
  limit_reached:
    'That alerts account already has the maximum number of channels. Delete one through the alerts API, then create ' +
    'a new code.',
};

/** The channel label of a chat, e.g. `Telegram @ann` or the group title. */
export function chatLabel(chat: TelegramChat): string {
  const name = chat.title ?? (chat.username ? `@${chat.username}` : chat.first_name) ?? `chat ${chat.id}`;
  return `Telegram ${name}`.slice(0, 100);
}

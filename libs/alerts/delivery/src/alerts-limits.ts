import { z } from 'zod';

/**
 * Limits of the alerts accounts and their channels, defined once: the channel limit (checked by
 * @paper/alerts-accounts however a channel is added), test messages per channel and minute, and the
 * lifetime of a Telegram link code (minted and quoted by alerts-api).
 */
export const ALERTS_LIMITS = Object.freeze({
  channelsPerAccount: 10,
  testMessagesPerMinute: 5,
  telegramLinkCodeMinutes: 15,
});

/** At most `tokens` requests in any `perMs` milliseconds. */
export interface DestinationRate {
  tokens: number;
  perMs: number;
}

/** `<tokens>/<milliseconds>`, e.g. `5/2000` = five requests per two seconds. */
const rate = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx): DestinationRate => {
      const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(v);
      if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
        ctx.addIssue({ code: 'custom', message: 'must be <tokens>/<milliseconds>, e.g. 5/2000' });
        return z.NEVER;
      }
      return { tokens: Number(match[1]), perMs: Number(match[2]) };
    });

/**
 * Per-destination rate limits, one definition for every service that sends to receivers (alerts-dispatcher
 * for deliveries, alerts-api for test messages and the Telegram bot's replies): both take their slots from
 * the same Redis buckets.
 */
export const destinationRateEnvShape = {
  ALERTS_WEBHOOK_RATE: rate('10/1000').describe(
    'Rate limit per webhook URL: <requests>/<milliseconds> (deliveries and test messages share it).',
  ),
  ALERTS_DISCORD_RATE: rate('5/2000').describe(
    'Rate limit per Discord webhook: <requests>/<milliseconds> (deliveries and test messages share it).',
  ),
  ALERTS_TELEGRAM_CHAT_RATE: rate('1/1000').describe(
    "Rate limit per Telegram chat: <requests>/<milliseconds> (deliveries, test messages and the bot's replies share " +
      'it).',
  ),
  ALERTS_TELEGRAM_GLOBAL_RATE: rate('30/1000').describe(
    "Rate limit of the bot across all chats: <requests>/<milliseconds> (deliveries, test messages and the bot's " +
      'replies share it).',
  ),
};

export type DestinationRates = { [K in keyof typeof destinationRateEnvShape]: DestinationRate };

/** Hosts exempt from the SSRF guard's private-address refusal, for every service that checks or sends to targets. */
export const allowHostsEnvShape = {
  ALERTS_ALLOW_HOSTS: z
    .string()
    .default('')
    .describe(
      'Comma-separated host or host:port entries whose private/loopback addresses may receive webhooks (development ' +
        'and tests only).',
    ),
};

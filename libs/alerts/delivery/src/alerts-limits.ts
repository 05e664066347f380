import { z } from 'zod';

/**
 * Limits that more than one alerts service enforces, defined once so they always agree: alerts-api
 * checks the channel limit when a channel is created and when a Telegram link code is minted,
 * alerts-dispatcher when the code is used; the code lifetime is minted by one and quoted by the other.
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
 * for deliveries, alerts-api for test messages): both take their slots from the same Redis buckets.
 */
export const destinationRateEnvShape = {
  ALERTS_WEBHOOK_RATE: rate('10/1000').describe(
    'Rate limit per webhook URL: <requests>/<milliseconds> (deliveries and test messages share it).',
  ),
  ALERTS_DISCORD_RATE: rate('5/2000').describe(
    'Rate limit per Discord webhook: <requests>/<milliseconds> (deliveries and test messages share it).',
  ),
  ALERTS_TELEGRAM_CHAT_RATE: rate('1/1000').describe(
    'Rate limit per Telegram chat: <requests>/<milliseconds> (deliveries and test messages share it).',
  ),
  ALERTS_TELEGRAM_GLOBAL_RATE: rate('30/1000').describe(
    'Rate limit of the bot across all chats: <requests>/<milliseconds>.',
  ),
};

export type DestinationRates = { [K in keyof typeof destinationRateEnvShape]: DestinationRate };

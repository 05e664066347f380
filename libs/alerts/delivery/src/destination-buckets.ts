import { type BucketSpec } from '@paper/webhook-delivery';
import { createHash } from 'node:crypto';
import type { DestinationRates } from './alerts-limits';
import { parseDiscordWebhookUrl } from './discord-webhook-url';

const hashed = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 24);

/**
 * The rate-limit buckets of a channel's destination (keys never contain a secret): one per webhook URL,
 * per Discord webhook, per Telegram chat plus one for the whole bot. Deliveries and test messages use
 * the same buckets.
 */
export function destinationBuckets(
  channel: { kind: 'discord' | 'webhook' | 'telegram'; target: string },
  rates: DestinationRates,
): BucketSpec[] {
  switch (channel.kind) {
    case 'discord': {
      const ref = parseDiscordWebhookUrl(channel.target);
      return [{ key: `discord:${ref?.id ?? hashed(channel.target)}`, ...rates.ALERTS_DISCORD_RATE }];
    }
    case 'telegram':
      return [
        { key: `telegram:chat:${channel.target}`, ...rates.ALERTS_TELEGRAM_CHAT_RATE },
        { key: 'telegram:global', ...rates.ALERTS_TELEGRAM_GLOBAL_RATE },
      ];
    case 'webhook':
      return [{ key: `webhook:${hashed(channel.target)}`, ...rates.ALERTS_WEBHOOK_RATE }];
  }
}

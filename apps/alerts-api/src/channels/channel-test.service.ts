import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ChannelEntity } from '@paper/alerts-data';
import {
  activeSigningSecrets,
  buildWebhookEvent,
  type DeliveryOutcome,
  destinationBuckets,
  formatTelegramHtml,
  parseAllowHosts,
  sendDiscord,
  sendTelegram,
  sendWebhook,
  TokenBuckets,
} from '@paper/alerts-delivery';
import { AlertsErrorCode } from '@paper/contracts';
import { APP_CONFIG, QueueRegistry, REDIS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { AlertsException, ChannelsService, type ChannelTestResultView } from '@paper/alerts-accounts';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { wakeDispatchers } from '../deliveries/dispatcher-wake-up';
import { TestMessageLimiter } from './test-message-limiter';

const TEXT =
  'Test message from the wallet alerts service: this channel can receive alerts. Alerts are best effort; the service ' +
  'is unofficial and not affiliated with the exchange.';

/** A test message waits this long at most for a free slot of its destination's rate limit; longer waits answer 429. */
const SLOT_WAIT_MAX_MS = 2000;

/**
 * Sends a real test message to an active channel (5 per minute per channel), taking its slot from the
 * same per-destination rate-limit buckets as alert deliveries. A receiver that is gone disables the channel
 * and tells the account on its other channels (a `channel_disabled` alert, as deliveries do).
 */
@Injectable()
export class ChannelTestService {
  private readonly logger = new Logger('ChannelTest');
  private readonly allowHosts: string[];
  private readonly buckets: TokenBuckets;

  constructor(
    private readonly channels: ChannelsService,
    private readonly limiter: TestMessageLimiter,
    private readonly queues: QueueRegistry,
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
  ) {
    this.allowHosts = parseAllowHosts(config.ALERTS_ALLOW_HOSTS);
    this.buckets = new TokenBuckets(redis, config.REDIS_PREFIX);
  }

  async test(accountId: string, channelId: string): Promise<ChannelTestResultView> {
    const channel = await this.channels.get(accountId, channelId);
    if (channel.status !== 'active') {
      const why =
        channel.status === 'paused'
          ? 'paused'
          : `disabled${channel.disabledReason ? ` (${channel.disabledReason})` : ''}`;
      throw new AlertsException(
        AlertsErrorCode.Conflict,
        `The channel is ${why}: test messages go only to active channels. Set it active with PATCH /api/channels/${channel.id} {"status": "active"} first.`,
      );
    }
    // The destination's slot first: when the receiver is busy (429), the channel's 5 tests a minute are untouched.
    await this.destinationSlot(channel);
    await this.limiter.take(channel.id);
    const eventId = `evt_test_${randomUUID()}`;
    const outcome = await this.send(channel, eventId);
    if (outcome.kind === 'disable' && (await this.channels.disableGone(channel, outcome.reason)))
      await wakeDispatchers(this.queues, this.logger);
    return {
      delivered: outcome.kind === 'delivered',
      outcome: outcome.kind,
      eventId,
      ...(outcome.status !== undefined ? { receiverStatus: outcome.status } : {}),
      ...(outcome.kind !== 'delivered' ? { detail: outcome.reason } : {}),
    };
  }

  /** Waits briefly for the destination's next free slot; a longer wait answers 429 with Retry-After. */
  private async destinationSlot(channel: ChannelEntity): Promise<void> {
    const buckets = destinationBuckets(channel, this.config);
    const deadline = Date.now() + SLOT_WAIT_MAX_MS;
    for (;;) {
      const wait = await this.buckets.take(buckets);
      if (wait === 0) return;
      if (Date.now() + wait > deadline) {
        const seconds = Math.max(1, Math.ceil(wait / 1000));
        throw new AlertsException(
          AlertsErrorCode.RateLimited,
          `The channel's receiver is at its rate limit (shared with alert deliveries). Retry in ${seconds} s.`,
          {
            'Retry-After': String(seconds),
          },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private send(channel: ChannelEntity, eventId: string): Promise<DeliveryOutcome> {
    const timeoutMs = this.config.ALERTS_DELIVERY_TIMEOUT_MS;
    const sentAt = new Date();
    switch (channel.kind) {
      case 'webhook':
        return sendWebhook(
          { url: channel.target, secrets: activeSigningSecrets(channel) },
          buildWebhookEvent(eventId, 'test', { channelId: channel.id, message: TEXT }, sentAt),
          { allowHosts: this.allowHosts, timeoutMs },
        );
      case 'discord':
        return sendDiscord(
          channel.target,
          {
            content: 'Test message from the wallet alerts service.',
            embeds: [
              {
                title: 'Test alert',
                description: TEXT,
                color: 0x3b82f6,
                timestamp: sentAt.toISOString(),
                footer: { text: eventId },
              },
            ],
          },
          { apiBase: this.config.DISCORD_API_BASE, timeoutMs },
        );
      case 'telegram':
        if (!this.config.TELEGRAM_BOT_TOKEN) {
          return Promise.resolve({ kind: 'retry', reason: 'Telegram is not configured on this service' });
        }
        return sendTelegram(channel.target, formatTelegramHtml('Test alert', [TEXT]), {
          apiBase: this.config.TELEGRAM_API_BASE,
          botToken: this.config.TELEGRAM_BOT_TOKEN,
          timeoutMs,
        });
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { ChannelEntity } from '@paper/alerts-data';
import { buildWebhookEvent, type DeliveryOutcome, formatTelegramHtml, parseAllowHosts, sendDiscord, sendTelegram, sendWebhook } from '@paper/alerts-delivery';
import { APP_CONFIG } from '@paper/nest-infra';
import { randomUUID } from 'node:crypto';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import type { ChannelTestResultView } from './channel.dto';
import { ChannelsService } from './channels.service';
import { TestMessageLimiter } from './test-message-limiter';

const TEXT = 'Test message from the wallet alerts service: this channel can receive alerts. Alerts are best effort; the service is unofficial and not affiliated with the exchange.';

/** Sends a real test message to a channel (5 per minute per channel). A receiver that is gone disables the channel. */
@Injectable()
export class ChannelTestService {
  private readonly allowHosts: string[];

  constructor(
    private readonly channels: ChannelsService,
    private readonly limiter: TestMessageLimiter,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
  ) {
    this.allowHosts = parseAllowHosts(config.ALERTS_ALLOW_HOSTS);
  }

  async test(accountId: string, channelId: string): Promise<ChannelTestResultView> {
    const channel = await this.channels.get(accountId, channelId);
    await this.limiter.take(channel.id);
    const eventId = `evt_test_${randomUUID()}`;
    const outcome = await this.send(channel, eventId);
    if (outcome.kind === 'disable') await this.channels.disable(channel, outcome.reason);
    return {
      delivered: outcome.kind === 'delivered',
      outcome: outcome.kind,
      eventId,
      ...(outcome.status !== undefined ? { receiverStatus: outcome.status } : {}),
      ...(outcome.kind !== 'delivered' ? { detail: outcome.reason } : {}),
    };
  }

  private send(channel: ChannelEntity, eventId: string): Promise<DeliveryOutcome> {
    const timeoutMs = this.config.ALERTS_DELIVERY_TIMEOUT_MS;
    const sentAt = new Date();
    switch (channel.kind) {
      case 'webhook':
        return sendWebhook(
          { url: channel.target, secret: channel.secret ?? '' },
          buildWebhookEvent(eventId, 'test', { channelId: channel.id, message: TEXT }, sentAt),
          { allowHosts: this.allowHosts, timeoutMs },
        );
      case 'discord':
        return sendDiscord(
          channel.target,
          { content: 'Test message from the wallet alerts service.', embeds: [{ title: 'Test alert', description: TEXT, color: 0x3b82f6, timestamp: sentAt.toISOString(), footer: { text: eventId } }] },
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

import { Inject, Injectable } from '@nestjs/common';
import type { DeliveryJob } from '@paper/alerts-data';
import {
  activeSigningSecrets,
  type BucketSpec,
  type DeliveryOutcome,
  destinationBuckets,
  parseAllowHosts,
  sendDiscord,
  sendTelegram,
  sendWebhook,
} from '@paper/alerts-delivery';
import { APP_CONFIG } from '@paper/nest-infra';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import { alertWebhookEvent, discordAlertMessage, telegramAlertText } from '../messages/channel-formats';

/** Renders an alert for its channel kind and sends it with the @paper/alerts-delivery senders. */
@Injectable()
export class DeliverySender {
  private readonly allowHosts: string[];

  constructor(@Inject(APP_CONFIG) private readonly config: AlertsDispatcherConfig) {
    this.allowHosts = parseAllowHosts(config.ALERTS_ALLOW_HOSTS);
  }

  /** The rate-limit buckets of the delivery's destination (shared with alerts-api's test messages). */
  buckets(job: DeliveryJob): BucketSpec[] {
    return destinationBuckets(job.channel, this.config);
  }

  send(job: DeliveryJob): Promise<DeliveryOutcome> {
    const timeoutMs = this.config.ALERTS_DELIVERY_TIMEOUT_MS;
    switch (job.channel.kind) {
      case 'webhook':
        return sendWebhook(
          { url: job.channel.target, secrets: activeSigningSecrets(job.channel) },
          alertWebhookEvent(job.alert),
          { allowHosts: this.allowHosts, timeoutMs },
        );
      case 'discord':
        return sendDiscord(job.channel.target, discordAlertMessage(job.alert), {
          apiBase: this.config.DISCORD_API_BASE,
          timeoutMs,
        });
      case 'telegram':
        if (!this.config.TELEGRAM_BOT_TOKEN)
          return Promise.resolve({ kind: 'retry', reason: 'Telegram is not configured on this service' });
        return sendTelegram(job.channel.target, telegramAlertText(job.alert), {
          apiBase: this.config.TELEGRAM_API_BASE,
          botToken: this.config.TELEGRAM_BOT_TOKEN,
          timeoutMs,
        });
    }
  }
}

import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  type ChannelFailure,
  type DeliveryJob,
  NOT_SENT_PAUSED,
  type SustainedFailurePolicy,
} from '@paper/alerts-data';
import { type DeliveryOutcome, TokenBuckets } from '@paper/alerts-delivery';
import { APP_CONFIG, createRedis, isDependencyOutage, metricsRegistry, outageDelay } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import { Counter, Histogram } from 'prom-client';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import { DeliverySender } from './delivery-sender.service';
import { DeliveryStore } from './delivery-store';
import { heldBackReason } from './held-back';
import { nextRetryDelay, rateLimitedDelay, type RetryPolicy } from '@paper/webhook-delivery';

const outcomes = new Counter({
  name: 'alerts_delivery_attempts_total',
  help: 'Delivery attempts by channel kind and outcome',
  labelNames: ['kind', 'outcome'],
  registers: [metricsRegistry],
});
const sendSeconds = new Histogram({
  name: 'alerts_delivery_send_seconds',
  help: 'Duration of one delivery attempt',
  labelNames: ['kind'],
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** Bucket waits up to this long are waited out in place; a longer one postpones the delivery (ms). */
const SHORT_WAIT_MS = 50;
/** When Redis does not answer, a claimed delivery is tried again this much later (ms). */
const REDIS_DOWN_RETRY_MS = 1000;
/** How long the record that a delivery was sent is kept in Redis beside its row (seconds). */
const SENT_MARK_TTL_S = 7 * 86_400;

export type DeliverResult = 'skipped' | 'postponed' | 'delivered' | 'retry_scheduled' | 'dead' | 'channel_disabled';

/**
 * One attempt of a claimed delivery and its outcome: the destination's rate limit (token buckets in
 * Redis), the send, and the record of what happened (delivered, a retry at the row's next attempt time,
 * a rate-limit wait, dead, or the channel disabled).
 *
 * Sending and recording belong together: once a receiver took a delivery, the attempt marks it sent in
 * Redis and then records it in PostgreSQL, retrying that write through an outage; an attempt that finds
 * the mark (the record failed for good, the process died in between) records the delivery without
 * sending it again.
 */
@Injectable()
export class DeliveryAttempts implements OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryAttempts.name);
  private readonly buckets: TokenBuckets;
  private readonly policy: RetryPolicy;
  private readonly sustainedFailure: SustainedFailurePolicy;
  /** The attempts' Redis commands (buckets, sent marks) on their own connection, pipelined per event-loop turn. */
  private readonly redis: Redis;

  constructor(
    private readonly store: DeliveryStore,
    private readonly sender: DeliverySender,
    @Inject(APP_CONFIG) private readonly config: AlertsDispatcherConfig,
  ) {
    this.redis = createRedis(config, { enableAutoPipelining: true });
    this.buckets = new TokenBuckets(this.redis, config.REDIS_PREFIX);
    this.policy = {
      schedule: config.ALERTS_RETRY_SCHEDULE_MS,
      jitterPct: config.ALERTS_RETRY_JITTER_PCT,
      retryAfterMaxMs: config.ALERTS_RETRY_AFTER_MAX_MS,
      rateLimitedMax: config.ALERTS_RATE_LIMITED_MAX,
    };
    this.sustainedFailure = {
      afterMs: config.ALERTS_DISABLE_AFTER_FAILING_MS,
      minFailedAttempts: config.ALERTS_DISABLE_MIN_FAILED_ATTEMPTS,
    };
  }

  /** Closes the attempts' Redis connection (after the pump has finished the attempts in flight). */
  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  /** One attempt of a claimed delivery (status `sending`, attempts counted). */
  async attempt(delivery: DeliveryJob): Promise<DeliverResult> {
    const id = delivery.id;
    if (delivery.channel.status !== 'active') {
      const why =
        delivery.channel.status === 'paused'
          ? NOT_SENT_PAUSED
          : `not sent: the channel is disabled${delivery.channel.disabledReason ? ` (${delivery.channel.disabledReason})` : ''}`;
      await this.store.dead(id, why, true);
      return 'skipped';
    }
    const heldBack = heldBackReason(delivery);
    if (heldBack) {
      await this.store.dead(id, `not sent: ${heldBack}`, true);
      return 'skipped';
    }
    // Without Redis the destination's rate limit cannot be checked: the attempt is given back for later.
    const wait = await this.takeSlot(delivery).catch(() => REDIS_DOWN_RETRY_MS);
    if (wait > 0) {
      await this.store.postpone(id, new Date(Date.now() + wait));
      return 'postponed';
    }
    // Only an attempt cut short (claimed again from `sending`) can have been sent already.
    if (delivery.claimedFrom === 'sending' && (await this.wasSent(id))) {
      await this.record(() => this.store.delivered(id));
      return 'delivered';
    }
    const end = sendSeconds.startTimer({ kind: delivery.channel.kind });
    const outcome: DeliveryOutcome = await this.sender
      .send(delivery)
      .catch((error: unknown) => ({ kind: 'retry', reason: `send failed: ${(error as Error).message}` }));
    end();
    outcomes.inc({ kind: delivery.channel.kind, outcome: outcome.kind });
    switch (outcome.kind) {
      case 'delivered':
        await this.markSent(id);
        await this.record(() => this.store.delivered(id));
        return 'delivered';
      case 'failed':
        await this.store.dead(id, outcome.reason);
        return this.channelFailed(delivery, 'dead');
      case 'disable':
        await this.store.dead(id, `channel disabled: ${outcome.reason}`);
        return this.channelFailed(delivery, 'channel_disabled', { kind: 'gone', reason: outcome.reason });
      case 'retry': {
        if (outcome.status === 429) return this.rateLimited(delivery, outcome);
        const delay = nextRetryDelay(delivery.attempts, this.policy, outcome.retryAfterMs);
        if (delay === undefined) {
          await this.store.dead(id, `gave up after ${delivery.attempts} attempts: ${outcome.reason}`);
          return this.channelFailed(delivery, 'dead');
        }
        await this.store.retryLater(id, outcome.reason, new Date(Date.now() + delay));
        return this.channelFailed(delivery, 'retry_scheduled');
      }
    }
  }

  /**
   * A failed attempt counts against its channel: a receiver that is gone (410, an unknown Discord webhook, a
   * Telegram chat not found or a blocked bot) disables it at once, sustained failure
   * (ALERTS_DISABLE_AFTER_FAILING_MS without a success, at least ALERTS_DISABLE_MIN_FAILED_ATTEMPTS failed
   * attempts) too; either way the account is told on its other channels, with the reason.
   */
  private async channelFailed(
    delivery: DeliveryJob,
    result: DeliverResult,
    failure: ChannelFailure = { kind: 'failed', policy: this.sustainedFailure },
  ): Promise<DeliverResult> {
    const disabled = await this.store.channelFailed(delivery.channel.id, failure);
    if (!disabled) return result;
    this.logger.warn(`channel ${disabled.id} disabled: ${disabled.disabled_reason}`);
    return 'channel_disabled';
  }

  /**
   * A 429 is not a failed attempt: the claimed attempt is given back and the delivery waits exactly the
   * receiver's Retry-After (plus a small jitter). The destination's buckets are held closed as long, so
   * other deliveries to the same receiver wait too. ALERTS_RATE_LIMITED_MAX bounds how often this can happen.
   */
  private async rateLimited(
    delivery: DeliveryJob,
    outcome: Extract<DeliveryOutcome, { kind: 'retry' }>,
  ): Promise<DeliverResult> {
    const delay = rateLimitedDelay(delivery.rateLimited, delivery.attempts - 1, this.policy, outcome.retryAfterMs);
    if (delay === undefined) {
      await this.store.dead(
        delivery.id,
        `gave up after ${delivery.rateLimited + 1} rate-limited answers: ${outcome.reason}`,
      );
      return 'dead';
    }
    if (outcome.retryAfterMs !== undefined)
      await this.buckets.hold(
        this.sender.buckets(delivery),
        Math.min(outcome.retryAfterMs, this.policy.retryAfterMaxMs),
      );
    await this.store.rateLimited(delivery.id, outcome.reason, new Date(Date.now() + delay));
    return 'retry_scheduled';
  }

  /**
   * Books a slot in the destination's buckets. A wait shorter than a later claim would take (a busy
   * receiver's next slot a few milliseconds away) is waited out in place; a longer one is returned and
   * the delivery is postponed, freeing its slot.
   */
  private async takeSlot(delivery: DeliveryJob): Promise<number> {
    const buckets = this.sender.buckets(delivery);
    for (let tries = 0; ; tries += 1) {
      const wait = await this.buckets.take(buckets);
      if (wait === 0 || wait > SHORT_WAIT_MS || tries >= 4) return wait;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private sentKey(id: string): string {
    return `${this.config.REDIS_PREFIX}:alerts:sent:${id}`;
  }

  private async wasSent(id: string): Promise<boolean> {
    return (await this.redis.exists(this.sentKey(id)).catch(() => 0)) === 1;
  }

  private async markSent(id: string): Promise<void> {
    await this.redis.set(this.sentKey(id), '1', 'EX', SENT_MARK_TTL_S).catch(() => undefined);
  }

  /** Writes the outcome of a send that happened, retrying while PostgreSQL is unreachable (never re-sending). */
  private async record(write: () => Promise<void>): Promise<void> {
    for (let retry = 0; ; retry += 1) {
      try {
        return await write();
      } catch (error) {
        if (!isDependencyOutage(error)) throw error;
        if (retry === 0)
          this.logger.warn(`recording a sent delivery waits for PostgreSQL: ${(error as Error).message}`);
        await new Promise((r) => setTimeout(r, outageDelay(retry)));
      }
    }
  }
}

import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type DeliveryOutcome, TokenBuckets } from '@paper/alerts-delivery';
import { ALERTS_DELIVERY_QUEUE } from '@paper/contracts';
import { APP_CONFIG, isDependencyOutage, metricsRegistry, outageDelay, QueueRegistry, REDIS } from '@paper/nest-infra';
import { DelayedError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, Histogram } from 'prom-client';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import { DeliverySender } from './delivery-sender.service';
import { type DeliveryJob, DeliveryStore } from './delivery-store';
import { DeliverySweeper } from './delivery-sweeper.service';
import { maxAttempts, nextRetryDelay, rateLimitedDelay, type RetryPolicy } from './retry-schedule';

const outcomes = new Counter({ name: 'alerts_delivery_attempts_total', help: 'Delivery attempts by channel kind and outcome', labelNames: ['kind', 'outcome'], registers: [metricsRegistry] });
const sendSeconds = new Histogram({ name: 'alerts_delivery_send_seconds', help: 'Duration of one delivery attempt', labelNames: ['kind'], buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [metricsRegistry] });

/** Small early arrivals (clock skew between replicas) are sent rather than delayed again. */
const EARLY_SLACK_MS = 250;
/** Bucket waits up to this long are waited out in place instead of through the delayed set (ms). */
const SHORT_WAIT_MS = 50;
/** How long the record that a delivery was sent is kept in Redis beside its row (seconds). */
const SENT_MARK_TTL_S = 7 * 86_400;

export type DeliverResult = 'missing' | 'already_final' | 'skipped' | 'delivered' | 'retry_scheduled' | 'dead' | 'channel_disabled';

type JobControl = Pick<Job, 'moveToDelayed' | 'token'>;

/**
 * Works the `deliver` jobs (job id = delivery id): one attempt per run, at least once. A delivered or
 * dead delivery is never sent again by a redelivered job; retries and rate-limit waits move the same
 * job to the delayed set; a process killed mid-attempt leaves the job to BullMQ's stalled-job recovery.
 *
 * Sending and recording belong together: once a receiver took a delivery, the dispatcher marks it sent
 * in Redis and then records it in PostgreSQL, retrying that write through an outage (and through a
 * shutdown, which waits for it) instead of giving the job up; a run that finds the mark (the record
 * failed for good, the process died in between) records the delivery without sending it again.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger(DeliveryProcessor.name);
  private readonly buckets: TokenBuckets;
  private readonly policy: RetryPolicy;

  constructor(
    private readonly queues: QueueRegistry,
    private readonly store: DeliveryStore,
    private readonly sender: DeliverySender,
    private readonly sweeper: DeliverySweeper,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AlertsDispatcherConfig,
  ) {
    this.buckets = new TokenBuckets(redis, config.REDIS_PREFIX);
    this.policy = {
      schedule: config.ALERTS_RETRY_SCHEDULE_MS,
      jitterPct: config.ALERTS_RETRY_JITTER_PCT,
      retryAfterMaxMs: config.ALERTS_RETRY_AFTER_MAX_MS,
      rateLimitedMax: config.ALERTS_RATE_LIMITED_MAX,
    };
  }

  onApplicationBootstrap(): void {
    this.queues.schedule(ALERTS_DELIVERY_QUEUE, 'sweep-deliveries', this.config.ALERTS_SWEEP_MS);
    this.queues.worker(
      ALERTS_DELIVERY_QUEUE,
      { deliver: (data, job) => this.deliver(data.deliveryId, job), 'sweep-deliveries': () => this.sweeper.sweep() },
      {
        concurrency: this.config.ALERTS_DELIVERY_CONCURRENCY,
        lockDuration: this.config.ALERTS_DELIVERY_LOCK_MS,
        stalledInterval: this.config.ALERTS_DELIVERY_STALLED_INTERVAL_MS,
      },
    );
  }

  async deliver(id: string, job: JobControl): Promise<DeliverResult> {
    const delivery = await this.store.load(id);
    if (!delivery) return 'missing';
    if (delivery.status === 'delivered' || delivery.status === 'dead') return 'already_final';
    if (delivery.channel.status !== 'active') {
      const why = delivery.channel.status === 'paused' ? 'the channel is paused' : `the channel is disabled${delivery.channel.disabledReason ? ` (${delivery.channel.disabledReason})` : ''}`;
      await this.store.dead(id, `not sent: ${why}`, ['queued', 'failed', 'sending']);
      return 'skipped';
    }
    const now = Date.now();
    if (delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() > now + EARLY_SLACK_MS) return this.delay(job, delivery.nextAttemptAt.getTime());
    const wait = await this.takeSlot(delivery);
    if (wait > 0) return this.delay(job, Date.now() + wait);
    const attempts = await this.store.claim(id);
    if (attempts === undefined) return 'already_final';
    if (await this.wasSent(id)) {
      await this.record(() => this.store.delivered(id));
      return 'delivered';
    }
    const end = sendSeconds.startTimer({ kind: delivery.channel.kind });
    const outcome: DeliveryOutcome = await this.sender.send(delivery).catch((error: unknown) => ({ kind: 'retry', reason: `send failed: ${(error as Error).message}` }));
    end();
    outcomes.inc({ kind: delivery.channel.kind, outcome: outcome.kind });
    switch (outcome.kind) {
      case 'delivered':
        await this.markSent(id);
        await this.record(() => this.store.delivered(id));
        return 'delivered';
      case 'failed':
        await this.store.dead(id, outcome.reason);
        return 'dead';
      case 'disable':
        this.logger.warn(`channel ${delivery.channel.id} disabled: ${outcome.reason}`);
        await this.store.disableChannel(id, delivery.channel.id, outcome.reason);
        return 'channel_disabled';
      case 'retry': {
        if (outcome.status === 429) return this.rateLimited(delivery, attempts, outcome, job);
        const delay = nextRetryDelay(attempts, this.policy, outcome.retryAfterMs);
        if (delay === undefined) {
          await this.store.dead(id, `gave up after ${attempts} attempts: ${outcome.reason}`);
          return 'dead';
        }
        const at = Date.now() + delay;
        await this.store.retryLater(id, outcome.reason, new Date(at));
        return this.delay(job, at);
      }
    }
  }

  /**
   * A 429 is not a failed attempt: the claimed attempt is given back and the delivery waits exactly the
   * receiver's Retry-After (plus a small jitter). The destination's buckets are held closed as long, so
   * other deliveries to the same receiver wait too. ALERTS_RATE_LIMITED_MAX bounds how often this can happen.
   */
  private async rateLimited(delivery: DeliveryJob, attempts: number, outcome: Extract<DeliveryOutcome, { kind: 'retry' }>, job: JobControl): Promise<DeliverResult> {
    const delay = rateLimitedDelay(delivery.rateLimited, attempts - 1, this.policy, outcome.retryAfterMs);
    if (delay === undefined) {
      await this.store.dead(delivery.id, `gave up after ${delivery.rateLimited + 1} rate-limited answers: ${outcome.reason}`);
      return 'dead';
    }
    if (outcome.retryAfterMs !== undefined) await this.buckets.hold(this.sender.buckets(delivery), Math.min(outcome.retryAfterMs, this.policy.retryAfterMaxMs));
    const at = Date.now() + delay;
    await this.store.rateLimited(delivery.id, outcome.reason, new Date(at));
    return this.delay(job, at);
  }

  /**
   * Books a slot in the destination's buckets. A wait shorter than a round trip through the delayed set
   * (a busy receiver's next slot a few milliseconds away) is waited out in place; a longer one is
   * returned and the job moves to the delayed set, freeing its concurrency slot.
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
        if (retry === 0) this.logger.warn(`recording a sent delivery waits for PostgreSQL: ${(error as Error).message}`);
        await new Promise((r) => setTimeout(r, outageDelay(retry)));
      }
    }
  }

  get attemptsLimit(): number {
    return maxAttempts(this.policy);
  }

  /** Moves the job to the delayed set (same job id) and tells BullMQ not to complete it. */
  private async delay(job: JobControl, at: number): Promise<never> {
    await job.moveToDelayed(at, job.token);
    throw new DelayedError();
  }
}

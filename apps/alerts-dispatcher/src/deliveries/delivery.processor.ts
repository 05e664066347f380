import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { DeliveryJob } from '@paper/alerts-data';
import { type DeliveryOutcome, TokenBuckets } from '@paper/alerts-delivery';
import { ALERTS_DELIVERY_QUEUE } from '@paper/contracts';
import {
  APP_CONFIG,
  createRedis,
  isDependencyOutage,
  metricsRegistry,
  outageDelay,
  QueueRegistry,
} from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import { Counter, Histogram } from 'prom-client';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import { DeliverySender } from './delivery-sender.service';
import { DeliveryStore } from './delivery-store';
import { maxAttempts, nextRetryDelay, rateLimitedDelay, type RetryPolicy } from './retry-schedule';

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
 * The delivery pump: PostgreSQL is the queue. It claims the due deliveries in batches (as many as it has
 * free slots, `SKIP LOCKED`, so replicas take disjoint ones), makes one attempt of each, at least once,
 * and records the outcome; a retry or a rate-limit wait is the row's next attempt time, read again by a
 * later claim. Jobs only wake it (`deliveries-due` from the poller and the API, the `sweep-deliveries`
 * schedule); it also looks for due rows every ALERTS_DELIVERY_POLL_MS, so a lost
 * wake-up delays nothing by more than that. The rows it is sending are renewed while they run; those of a dispatcher that died are
 * claimed again once ALERTS_DELIVERY_LOCK_MS passed without a renewal.
 *
 * Sending and recording belong together: once a receiver took a delivery, the dispatcher marks it sent
 * in Redis and then records it in PostgreSQL, retrying that write through an outage (and through a
 * shutdown, which waits for it); an attempt that finds the mark (the record failed for good, the process
 * died in between) records the delivery without sending it again. On SIGTERM it stops claiming and
 * finishes what it holds before the connections close.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryProcessor.name);
  private readonly buckets: TokenBuckets;
  private readonly policy: RetryPolicy;
  /** The attempts' Redis commands (buckets, sent marks) on their own connection, pipelined per event-loop turn. */
  private readonly redis: Redis;
  private readonly inFlight = new Map<string, Promise<void>>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private renewer: NodeJS.Timeout | undefined;
  private signal: (() => void) | undefined;
  private woken = false;

  constructor(
    private readonly queues: QueueRegistry,
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
  }

  onApplicationBootstrap(): void {
    this.queues.schedule(ALERTS_DELIVERY_QUEUE, 'sweep-deliveries', this.config.ALERTS_SWEEP_MS);
    this.queues.worker(
      ALERTS_DELIVERY_QUEUE,
      {
        'deliveries-due': async () => this.wake(),
        'sweep-deliveries': async () => this.wake(),
      },
      { concurrency: 64 },
    );
    this.renewer = setInterval(
      () => void this.renew(),
      Math.max(100, Math.floor(this.config.ALERTS_DELIVERY_LOCK_MS / 3)),
    ).unref();
    this.loop = this.run();
  }

  /** Stops claiming, then waits for every attempt in flight to be sent and recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await Promise.all(this.inFlight.values());
    clearInterval(this.renewer);
    this.redis.disconnect();
  }

  /** Something may be due: claim now (a wake-up job, the schedule, a freed slot). */
  wake(): void {
    this.woken = true;
    this.signal?.();
  }

  get attemptsLimit(): number {
    return maxAttempts(this.policy);
  }

  private async run(): Promise<void> {
    let failures = 0;
    const concurrency = this.config.ALERTS_DELIVERY_CONCURRENCY;
    const half = Math.ceil(concurrency / 2);
    let backlog = false;
    while (!this.stopping) {
      const free = concurrency - this.inFlight.size;
      let claimed: DeliveryJob[] = [];
      this.woken = false;
      // With a backlog (the last claim was full), a claim waits until half the slots are free, so one
      // claim serves many deliveries; without one, a new delivery is claimed as soon as it is due.
      if (free > 0 && (!backlog || free >= half)) {
        try {
          claimed = await this.store.claimDue(free, this.config.ALERTS_DELIVERY_LOCK_MS);
          failures = 0;
        } catch (error) {
          failures += 1;
          if (failures === 1 || !isDependencyOutage(error))
            this.logger.warn(`claiming due deliveries failed: ${(error as Error).message}`);
          await this.pause(outageDelay(failures - 1));
          continue;
        }
        for (const delivery of claimed) this.start(delivery);
        backlog = claimed.length === free;
      }
      if (this.stopping) break;
      if (!backlog || concurrency - this.inFlight.size < half) await this.pause(this.config.ALERTS_DELIVERY_POLL_MS);
    }
  }

  private start(delivery: DeliveryJob): void {
    const attempt = this.attempt(delivery)
      .catch((error: unknown) =>
        this.logger.error(`delivery ${delivery.id} attempt failed: ${(error as Error).message}`),
      )
      .then(() => {
        this.inFlight.delete(delivery.id);
        this.wake();
      });
    this.inFlight.set(delivery.id, attempt);
  }

  /** Sleeps until woken or `ms` passed (a wake-up that came while claiming is not lost). */
  private pause(ms: number): Promise<void> {
    if (this.woken || this.stopping) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.signal = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal = done;
    });
  }

  private async renew(): Promise<void> {
    await this.store
      .renew([...this.inFlight.keys()])
      .catch((error: Error) => this.logger.warn(`renewing deliveries in flight failed: ${error.message}`));
  }

  /** One attempt of a claimed delivery (status `sending`, attempts counted). */
  async attempt(delivery: DeliveryJob): Promise<DeliverResult> {
    const id = delivery.id;
    if (delivery.channel.status !== 'active') {
      const why =
        delivery.channel.status === 'paused'
          ? 'the channel is paused'
          : `the channel is disabled${delivery.channel.disabledReason ? ` (${delivery.channel.disabledReason})` : ''}`;
      await this.store.dead(id, `not sent: ${why}`, true);
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
        return 'dead';
      case 'disable':
        this.logger.warn(`channel ${delivery.channel.id} disabled: ${outcome.reason}`);
        await this.store.disableChannel(id, delivery.channel.id, outcome.reason);
        return 'channel_disabled';
      case 'retry': {
        if (outcome.status === 429) return this.rateLimited(delivery, outcome);
        const delay = nextRetryDelay(delivery.attempts, this.policy, outcome.retryAfterMs);
        if (delay === undefined) {
          await this.store.dead(id, `gave up after ${delivery.attempts} attempts: ${outcome.reason}`);
          return 'dead';
        }
        await this.store.retryLater(id, outcome.reason, new Date(Date.now() + delay));
        return 'retry_scheduled';
      }
    }
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

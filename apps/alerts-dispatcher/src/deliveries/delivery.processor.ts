import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { DeliveryJob } from '@paper/alerts-data';
import { ALERTS_DELIVERY_QUEUE } from '@paper/contracts';
import { APP_CONFIG, isDependencyOutage, outageDelay, QueueRegistry } from '@paper/nest-infra';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import { DeliveryAttempts } from './delivery-attempts.service';
import { DeliveryStore } from './delivery-store';

/**
 * The delivery pump: PostgreSQL is the queue. It claims the due deliveries in batches (as many as it has
 * free slots, `SKIP LOCKED`, so replicas take disjoint ones) and starts one attempt of each
 * (DeliveryAttempts), at least once; a retry or a rate-limit wait is the row's next attempt time, read
 * again by a later claim. Jobs only wake it (`deliveries-due` from the poller and the API, the
 * `sweep-deliveries` schedule); it also looks for due rows every ALERTS_DELIVERY_POLL_MS, so a lost
 * wake-up delays nothing by more than that. The rows it is sending are renewed while they run; those of a
 * dispatcher that died are claimed again once ALERTS_DELIVERY_LOCK_MS passed without a renewal. On
 * SIGTERM it stops claiming and finishes what it holds (sent and recorded) before the connections close.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryProcessor.name);
  private readonly inFlight = new Map<string, Promise<void>>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private renewer: NodeJS.Timeout | undefined;
  private signal: (() => void) | undefined;
  private woken = false;

  constructor(
    private readonly queues: QueueRegistry,
    private readonly store: DeliveryStore,
    private readonly attempts: DeliveryAttempts,
    @Inject(APP_CONFIG) private readonly config: AlertsDispatcherConfig,
  ) {}

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
  }

  /** Something may be due: claim now (a wake-up job, the schedule, a freed slot). */
  wake(): void {
    this.woken = true;
    this.signal?.();
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
    const attempt = this.attempts
      .attempt(delivery)
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
}

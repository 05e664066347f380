import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { InvalidJobPayloadError, type QueueContract, parseJob } from '@paper/contracts';
import { type Job, type JobsOptions, Queue, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import type { z } from 'zod';
import { APP_CONFIG } from '../config/app-config';
import { HealthRegistry } from '../health/health-registry';
import { bullConnection, bullProducerConnection, connectionErrorLogger, type RedisSettings } from '../redis/redis';
import { ScheduleKeeper } from './job-schedules';
import { runThroughOutages } from './outage-retry';

type AnyContract = QueueContract<Record<string, z.ZodType>>;
export type JobHandler = (name: string, data: unknown, job: Job) => Promise<unknown>;

/**
 * Lock of a running job (ms), unless a worker sets its own. With the stalled check at a third of it, the
 * job of a process killed with SIGKILL is running again elsewhere within about 1.3 × this.
 */
export const DEFAULT_LOCK_MS = 2000;
/**
 * Times a job may be found stalled (its process died while running it) before BullMQ fails it for good.
 * Crashes and deploys must never fail work, so this is high; a job that kills its process every time
 * still ends, as failed, after this many tries.
 */
export const DEFAULT_MAX_STALLED = 50;

/**
 * Creates BullMQ queues, workers and job schedulers from the frozen contracts in @paper/contracts.
 * Workers validate each payload against its schema and fail bad ones without retrying; a run that meets
 * a PostgreSQL or Redis outage is retried with backoff without using up an attempt. Schedulers are kept
 * alive by a ScheduleKeeper (re-created after Redis loses them) and reported by readiness when late.
 *
 * Shutdown is ordered: before the application shuts down, workers stop taking jobs and finish (or hand
 * back) the active ones; queues close with the other connections afterwards.
 */
@Injectable()
export class QueueRegistry implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Queues');
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly stopping = new AbortController();
  private readonly keeper: ScheduleKeeper;

  constructor(
    @Inject(APP_CONFIG) private readonly settings: RedisSettings,
    @Optional() private readonly health?: HealthRegistry,
  ) {
    this.keeper = new ScheduleKeeper((name) => this.queueNamed(name), `${settings.REDIS_PREFIX}:schedules:last-run`);
  }

  queue(contract: AnyContract): Queue {
    return this.queueNamed(contract.queue);
  }

  private queueNamed(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, bullProducerConnection(this.settings));
      queue.on('error', connectionErrorLogger(`queue ${name}`, this.logger));
      this.queues.set(name, queue);
    }
    return queue;
  }

  async add<C extends AnyContract>(contract: C, name: string, data: unknown, opts?: JobsOptions): Promise<Job> {
    parseJob(contract, name, data);
    return this.queue(contract).add(name, data, opts);
  }

  /**
   * A repeatable job: the scheduler `name` adds a `name` job to the contract's queue every `everyMs`
   * (whichever worker replica takes it). Created now and re-created whenever Redis lost it.
   */
  schedule(contract: AnyContract, name: string, everyMs: number, opts: JobsOptions = {}): void {
    if (this.keeper.size === 0) this.health?.register('schedules', () => this.keeper.readiness());
    this.keeper.add({ queue: contract.queue, name, everyMs, opts });
  }

  worker(contract: AnyContract, handler: JobHandler, options: Partial<WorkerOptions> = {}): Worker {
    const lockDuration = options.lockDuration ?? DEFAULT_LOCK_MS;
    const worker = new Worker(
      contract.queue,
      async (job) => {
        let parsed: { name: string; data: unknown };
        try {
          parsed = parseJob(contract, job.name, job.data);
        } catch (error) {
          if (error instanceof InvalidJobPayloadError) throw new UnrecoverableError(error.message);
          throw error;
        }
        const result = await runThroughOutages(contract.queue, job, () => handler(parsed.name, parsed.data, job), this.stopping.signal, this.logger);
        await this.keeper.recordRun(contract.queue, job.name);
        return result;
      },
      {
        ...bullConnection(this.settings),
        concurrency: 1,
        lockDuration,
        stalledInterval: Math.max(250, Math.round(lockDuration / 3)),
        maxStalledCount: DEFAULT_MAX_STALLED,
        ...options,
      },
    );
    worker.on('error', connectionErrorLogger(`worker ${contract.queue}`, this.logger));
    worker.on('failed', (job, error) => this.logger.warn(`job ${contract.queue}/${job?.name} ${job?.id} failed: ${error.message}`));
    this.workers.push(worker);
    return worker;
  }

  /** First step of shutdown: no new jobs; active ones finish, or are handed back when they wait out an outage. */
  async beforeApplicationShutdown(): Promise<void> {
    this.keeper.stop();
    this.stopping.abort();
    await Promise.all(this.workers.map((w) => w.close()));
  }

  /** Last step: the queues' connections close with the app's other connections. */
  async onApplicationShutdown(): Promise<void> {
    this.keeper.stop();
    this.stopping.abort();
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

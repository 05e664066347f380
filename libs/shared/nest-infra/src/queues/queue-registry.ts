import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { InvalidJobPayloadError, type JobName, type JobPayload, type QueueContract, parseJob } from '@paper/contracts';
import { type Job, type JobsOptions, Queue, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import type { z } from 'zod';
import { APP_CONFIG } from '../config/app-config';
import { HealthRegistry } from '../health/health-registry';
import { bullConnection, bullProducerConnection, connectionErrorLogger, type RedisSettings } from '../redis/redis';
import { ScheduleKeeper } from './job-schedules';
import { runThroughOutages } from './outage-retry';
import { addWakeUp } from './wake-up';

type AnyContract = QueueContract<Record<string, z.ZodType>>;

/** A worker's handlers: one per job name of its queue's contract, given the payload the contract parsed. */
export type JobHandlers<C extends AnyContract> = {
  [N in JobName<C>]: (data: JobPayload<C, N>, job: Job) => Promise<unknown>;
};

/** What callers may do with a queue besides adding jobs through the registry. */
export type JobLookup = Pick<Queue, 'getJob' | 'getJobState' | 'remove' | 'getJobScheduler' | 'getJobCounts'>;

/** Options a producer may add to the contract's: the job id (idempotency), LIFO, a delay. */
export type AddOptions = Pick<JobsOptions, 'jobId' | 'lifo' | 'delay' | 'priority'>;

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

  /**
   * The contract's queue, to look jobs up or remove them; jobs are added through add, addBulk, wakeUp and schedule
   * only.
   */
  queue(contract: AnyContract): JobLookup {
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

  /** Adds a job with its contract's options; the payload is checked against the contract first. */
  async add<C extends AnyContract, N extends JobName<C>>(
    contract: C,
    name: N,
    data: JobPayload<C, N>,
    opts: AddOptions = {},
  ): Promise<Job> {
    parseJob(contract, name, data);
    return this.queueNamed(contract.queue).add(name, data, jobOptions(contract, name, opts));
  }

  /** Adds several jobs of one name in one round trip (each checked against the contract first). */
  async addBulk<C extends AnyContract, N extends JobName<C>>(
    contract: C,
    name: N,
    jobs: readonly { data: JobPayload<C, N>; opts?: AddOptions }[],
  ): Promise<Job[]> {
    for (const job of jobs) parseJob(contract, name, job.data);
    return this.queueNamed(contract.queue).addBulk(
      jobs.map((job) => ({ name, data: job.data, opts: jobOptions(contract, name, job.opts ?? {}) })),
    );
  }

  /**
   * Adds the wake-up job of work already recorded in PostgreSQL, waiting at most `timeoutMs`; null when
   * the queue did not take it in time (nothing is lost: the record stays and a sweeper runs it).
   */
  async wakeUp<C extends AnyContract, N extends JobName<C>>(
    contract: C,
    name: N,
    data: JobPayload<C, N>,
    opts: AddOptions,
    timeoutMs: number,
  ): Promise<Job | null> {
    parseJob(contract, name, data);
    return addWakeUp(this.queueNamed(contract.queue), name, data, jobOptions(contract, name, opts), timeoutMs);
  }

  /**
   * A repeatable job: the scheduler `name` adds a `name` job (with the contract's options) to the
   * contract's queue every `everyMs` (whichever worker replica takes it). Created now and re-created
   * whenever Redis lost it.
   */
  schedule<C extends AnyContract>(contract: C, name: JobName<C>, everyMs: number): void {
    if (this.keeper.size === 0) this.health?.register('schedules', () => this.keeper.readiness());
    this.keeper.add({ queue: contract.queue, name, everyMs, opts: jobOptions(contract, name, {}) });
  }

  /**
   * A worker of the contract's queue: each job, its payload parsed by the contract, goes to the handler of its name.
   */
  worker<C extends AnyContract>(contract: C, handlers: JobHandlers<C>, options: Partial<WorkerOptions> = {}): Worker {
    const byName = handlers as Record<string, (data: unknown, job: Job) => Promise<unknown>>;
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
        const handler = byName[parsed.name]!;
        const result = await runThroughOutages(
          contract.queue,
          job,
          () => handler(parsed.data, job),
          this.stopping.signal,
          this.logger,
        );
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
    worker.on('failed', (job, error) =>
      this.logger.warn(`job ${contract.queue}/${job?.name} ${job?.id} failed: ${error.message}`),
    );
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

/** The contract's options of a job name, with the producer's additions. */
function jobOptions(contract: AnyContract, name: string, opts: AddOptions): JobsOptions {
  return { ...contract.options[name], ...opts };
}

import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InvalidJobPayloadError, type QueueContract, parseJob } from '@paper/contracts';
import { type Job, type JobsOptions, Queue, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import type { z } from 'zod';
import { APP_CONFIG } from '../config/app-config';
import { bullConnection, type RedisSettings } from '../redis/redis';

type AnyContract = QueueContract<Record<string, z.ZodType>>;
export type JobHandler = (name: string, data: unknown, job: Job) => Promise<unknown>;

/**
 * Creates BullMQ queues and workers from the frozen contracts in @paper/contracts. Workers validate
 * each payload against its schema and fail bad ones without retrying. On shutdown, workers stop taking
 * jobs and wait for the active ones (drain), then connections close.
 */
@Injectable()
export class QueueRegistry implements OnApplicationShutdown {
  private readonly logger = new Logger('Queues');
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];

  constructor(@Inject(APP_CONFIG) private readonly settings: RedisSettings) {}

  queue(contract: AnyContract): Queue {
    let queue = this.queues.get(contract.queue);
    if (!queue) {
      queue = new Queue(contract.queue, bullConnection(this.settings));
      queue.on('error', (error) => this.logger.warn(`queue ${contract.queue}: ${error.message}`));
      this.queues.set(contract.queue, queue);
    }
    return queue;
  }

  async add<C extends AnyContract>(contract: C, name: string, data: unknown, opts?: JobsOptions): Promise<Job> {
    parseJob(contract, name, data);
    return this.queue(contract).add(name, data, opts);
  }

  worker(contract: AnyContract, handler: JobHandler, options: Partial<WorkerOptions> = {}): Worker {
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
        return handler(parsed.name, parsed.data, job);
      },
      { ...bullConnection(this.settings), concurrency: 1, ...options },
    );
    worker.on('error', (error) => this.logger.warn(`worker ${contract.queue}: ${error.message}`));
    worker.on('failed', (job, error) => this.logger.warn(`job ${contract.queue}/${job?.name} ${job?.id} failed: ${error.message}`));
    this.workers.push(worker);
    return worker;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

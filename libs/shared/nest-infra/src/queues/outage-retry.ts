import type { Logger } from '@nestjs/common';
import { DelayedError, type Job, WaitingError } from 'bullmq';
import { Counter } from 'prom-client';
import { isDependencyOutage } from '../errors/dependency-outage';
import { metricsRegistry } from '../metrics/metrics';

const outageRetries = new Counter({
  name: 'queue_job_outage_retries_total',
  help: 'Job runs that met a PostgreSQL or Redis outage and were retried without using up an attempt, by queue',
  labelNames: ['queue'],
  registers: [metricsRegistry],
});

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

/** Backoff before the n-th retry of a run that met an outage: 250 ms doubling to 5 s, with jitter. */
export function outageDelay(retry: number): number {
  const base = Math.min(FIRST_DELAY_MS * 2 ** retry, MAX_DELAY_MS);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/**
 * Runs a job's handler; when it fails because PostgreSQL or Redis is unreachable, the job keeps its
 * worker slot and runs again after a backoff (so the worker pauses instead of failing work), without
 * using up a BullMQ attempt. Handlers must be safe to run again, which they are anyway: a job may run
 * twice after a crash. When the worker shuts down (`stopping` aborts), a job that is waiting out an
 * outage is handed back to the queue (delayed, attempt not counted) for another process.
 */
export async function runThroughOutages<T>(
  queue: string,
  job: Job,
  run: () => Promise<T>,
  stopping: AbortSignal,
  logger: Logger,
): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await run();
    } catch (error) {
      if (error instanceof DelayedError || error instanceof WaitingError || !isDependencyOutage(error)) throw error;
      outageRetries.inc({ queue });
      if (retry === 0)
        logger.warn(
          `job ${queue}/${job.name} ${job.id} met an outage (${(error as Error).message}); retrying with backoff`,
        );
      if (stopping.aborted) await handBack(job, error);
      await pause(outageDelay(retry), stopping);
      if (stopping.aborted) await handBack(job, error);
    }
  }
}

/**
 * Gives the job back to the queue for another process (no attempt used); if Redis is down too, its lock lapses and it
 * is recovered as stalled.
 */
async function handBack(job: Job, cause: unknown): Promise<never> {
  try {
    await job.moveToDelayed(Date.now() + FIRST_DELAY_MS, job.token);
  } catch {
    throw cause;
  }
  throw new DelayedError();
}

import type { Job, JobsOptions, Queue, QueueEvents } from 'bullmq';

/** How a wait for a job ended: its return value, a failure, or nothing within the time. */
export type JobWait =
  { state: 'completed'; value: unknown } | { state: 'failed'; reason: string } | { state: 'timeout' };

/**
 * Adds the wake-up job of work already recorded in PostgreSQL, waiting at most `timeoutMs` (Redis may be
 * down, and BullMQ's connection keeps commands until it is back). Never throws: null means the queue did
 * not take the job in time, which loses nothing (the record stays, and a sweeper runs it).
 */
export async function addWakeUp(
  queue: Queue,
  name: string,
  data: unknown,
  opts: JobsOptions,
  timeoutMs: number,
): Promise<Job | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(1, timeoutMs))));
  try {
    return await Promise.race([queue.add(name, data, opts).catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits for a job to finish (event-driven, through the queue's events stream), at most `timeoutMs`, also
 * while Redis is unreachable (BullMQ's own wait first waits for the connection, without a limit).
 */
export async function waitForJob(job: Job, events: QueueEvents, timeoutMs: number): Promise<JobWait> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<JobWait>(
    (resolve) => (timer = setTimeout(() => resolve({ state: 'timeout' }), Math.max(1, timeoutMs))),
  );
  const waiting = job.waitUntilFinished(events, Math.max(1, timeoutMs)).then(
    (value: unknown): JobWait => ({ state: 'completed', value }),
    (error: Error): JobWait =>
      /timed out/i.test(error.message) ? { state: 'timeout' } : { state: 'failed', reason: error.message },
  );
  try {
    return await Promise.race([waiting, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

import type { z } from 'zod';

/** How long finished jobs are kept: a count, or an age in seconds (and at most a count). */
export type JobRetention = boolean | number | { age: number; count?: number } | { age?: number; count: number };

/** The options every job of a name is added with (BullMQ's names and meanings). */
export interface JobDefaults {
  /** Tries before the job fails for good (outages of PostgreSQL or Redis do not use them up). */
  attempts?: number;
  backoff?: { type: 'fixed' | 'exponential'; delay: number };
  removeOnComplete?: JobRetention;
  removeOnFail?: JobRetention;
}

/**
 * A queue contract: a frozen queue name and, per job name, the payload schema consumers validate and the
 * options producers add the job with. Producers and consumers import the same contract so names,
 * payloads and job options cannot drift; the queue registry is the only way to add a job.
 */
export interface QueueContract<J extends Record<string, z.ZodType>> {
  readonly queue: string;
  readonly jobs: Readonly<J>;
  readonly options: Readonly<{ [N in keyof J]?: Readonly<JobDefaults> }>;
}

export function defineQueue<J extends Record<string, z.ZodType>>(
  queue: string,
  jobs: J,
  options: { [N in keyof J]?: JobDefaults } = {},
): QueueContract<J> {
  return Object.freeze({ queue, jobs: Object.freeze({ ...jobs }), options: Object.freeze({ ...options }) });
}

export type JobName<Q extends QueueContract<Record<string, z.ZodType>>> = Extract<keyof Q['jobs'], string>;

export type JobPayload<Q extends QueueContract<Record<string, z.ZodType>>, N extends JobName<Q>> = z.infer<
  Q['jobs'][N]
>;

export class InvalidJobPayloadError extends Error {
  constructor(
    readonly queue: string,
    readonly job: string,
    readonly issues: string,
  ) {
    super(`Invalid payload for ${queue}/${job}: ${issues}`);
    this.name = 'InvalidJobPayloadError';
  }
}

/** Validates a job payload against its contract; throws InvalidJobPayloadError (never retried). */
export function parseJob<Q extends QueueContract<Record<string, z.ZodType>>, N extends JobName<Q>>(
  contract: Q,
  name: string,
  data: unknown,
): { name: N; data: JobPayload<Q, N> } {
  const schema = contract.jobs[name];
  if (!schema) {
    throw new InvalidJobPayloadError(contract.queue, name, 'unknown job name');
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new InvalidJobPayloadError(contract.queue, name, issues);
  }
  return { name: name as N, data: result.data as JobPayload<Q, N> };
}

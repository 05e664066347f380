import type { z } from 'zod';

/**
 * A queue contract: a frozen queue name and, per job name, the payload schema consumers validate.
 * Producers and consumers import the same contract so names and payloads cannot drift.
 */
export interface QueueContract<J extends Record<string, z.ZodType>> {
  readonly queue: string;
  readonly jobs: Readonly<J>;
}

export function defineQueue<J extends Record<string, z.ZodType>>(queue: string, jobs: J): QueueContract<J> {
  return Object.freeze({ queue, jobs: Object.freeze({ ...jobs }) });
}

export type JobName<Q extends QueueContract<Record<string, z.ZodType>>> = Extract<keyof Q['jobs'], string>;

export type JobPayload<
  Q extends QueueContract<Record<string, z.ZodType>>,
  N extends JobName<Q>,
> = z.infer<Q['jobs'][N]>;

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

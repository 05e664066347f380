import { z } from 'zod';
import { defineQueue } from './queue-contract';

/** Scheduled polls of the tool API, one leader at a time (BullMQ job scheduler). */
export const ALERTS_POLL_QUEUE = defineQueue(
  'alerts-poll',
  {
    'poll-wallets': z.object({ scheduledAt: z.number().int().optional() }).strict(),
    'poll-protocol': z.object({ scheduledAt: z.number().int().optional() }).strict(),
  },
  {
    'poll-wallets': { removeOnComplete: 50, removeOnFail: 200 },
    'poll-protocol': { removeOnComplete: 50, removeOnFail: 200 },
  },
);

/**
 * Wake-ups of the dispatchers, which read the due deliveries from PostgreSQL: `deliveries-due` after new
 * deliveries were committed (job id `deliveries-due`, so one waits at a time however many producers add
 * it) and the `sweep-deliveries` schedule.
 */
export const DELIVERIES_DUE_JOB_ID = 'deliveries-due';

export const ALERTS_DELIVERY_QUEUE = defineQueue(
  'alerts-deliveries',
  {
    'deliveries-due': z.object({}).strict(),
    'sweep-deliveries': z.object({}).strict(),
  },
  {
    'deliveries-due': { removeOnComplete: true, removeOnFail: 100 },
    'sweep-deliveries': { removeOnComplete: 20, removeOnFail: 50 },
  },
);

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
 * One `deliver` job per alert and channel; job id = delivery id (deterministic from the alert's event
 * id). `sweep-deliveries` (a job scheduler of the dispatcher) re-enqueues pending deliveries left without a job.
 */
export const ALERTS_DELIVERY_QUEUE = defineQueue(
  'alerts-deliveries',
  {
    deliver: z.object({ deliveryId: z.string().uuid() }).strict(),
    'sweep-deliveries': z.object({}).strict(),
  },
  {
    deliver: { removeOnComplete: 1000, removeOnFail: 5000 },
    'sweep-deliveries': { removeOnComplete: 20, removeOnFail: 50 },
  },
);

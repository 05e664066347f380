import { z } from 'zod';
import { defineQueue } from './queue-contract';
import { address, hex32, signature65 as signature, uint256, uint64 } from './signed-fields';
import { MARKET_NAMES } from '@paper/markets';

/** A signed intent as it travels on the queue: integers as decimal strings. */
export const signedIntentSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('open'),
      message: z
        .object({
          wallet: address,
          market: z.enum(MARKET_NAMES),
          side: z.enum(['long', 'short']),
          marginMicro: uint256,
          leverage: z.number().int().min(1).max(1000),
          nonce: uint256,
          expiresAt: uint64,
        })
        .strict(),
      sessionKey: address,
      signature,
      intentId: hex32,
    })
    .strict(),
  z
    .object({
      kind: z.literal('close'),
      message: z
        .object({ wallet: address, positionIds: z.array(uint256).min(1).max(12), nonce: uint256, expiresAt: uint64 })
        .strict(),
      sessionKey: address,
      signature,
      intentId: hex32,
    })
    .strict(),
  z
    .object({
      kind: z.literal('cancel'),
      message: z.object({ wallet: address, intentId: hex32, nonce: uint256, expiresAt: uint64 }).strict(),
      sessionKey: address,
      signature,
      intentId: hex32,
    })
    .strict(),
]);

export type SignedIntentPayload = z.infer<typeof signedIntentSchema>;

/**
 * Job id of `intents-due`, the wake-up the tool API adds after committing intents: one waits at a time
 * however many producers add it (the executor claims every queued intent from PostgreSQL, and results
 * travel on {@link intentResultsChannel}).
 */
export const INTENTS_DUE_JOB_ID = 'intents-due';

/**
 * Accepted trading intents, run by trading-executor from `exchange.intents`: the only job, `intents-due`,
 * wakes the executors up.
 */
export const INTENTS_QUEUE = defineQueue(
  'exchange-intents',
  { 'intents-due': z.object({}).strict() },
  { 'intents-due': { removeOnComplete: true, removeOnFail: true } },
);

/** Periodic exchange maintenance run by trading-executor. */
const KEEP_MAINTENANCE_RUNS = { removeOnComplete: 100, removeOnFail: 100 } as const;

export const EXCHANGE_MAINTENANCE_QUEUE = defineQueue(
  'exchange-maintenance',
  {
    'harvest-payouts': z.object({}).strict(),
    'snapshot-equity': z.object({}).strict(),
    'rollup-daily-stats': z
      .object({
        day: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional(),
      })
      .strict(),
    'sweep-deposits': z.object({}).strict(),
    'expire-intents': z.object({}).strict(),
    'prune-events': z.object({}).strict(),
  },
  {
    'harvest-payouts': KEEP_MAINTENANCE_RUNS,
    'snapshot-equity': KEEP_MAINTENANCE_RUNS,
    'rollup-daily-stats': KEEP_MAINTENANCE_RUNS,
    'sweep-deposits': KEEP_MAINTENANCE_RUNS,
    'expire-intents': KEEP_MAINTENANCE_RUNS,
    'prune-events': KEEP_MAINTENANCE_RUNS,
  },
);

import { z } from 'zod';
import { defineQueue } from './queue-contract';
import { address, signature65, uint64 } from './signed-fields';
import { MARKET_NAMES } from '@paper/markets';

/** Guardrails as chosen by the owner (amounts as decimal USDC strings, null = no limit). */
/** A guardrail amount in USDC: up to 12 whole digits and 6 decimals (micro-USDC), so it fits the engine's integers. */
export const GUARDRAIL_AMOUNT = /^\d{1,12}(\.\d{1,6})?$/;

export const guardrailsSchema = z
  .object({
    maxMarginPerTradeUsd: z.string().regex(GUARDRAIL_AMOUNT).nullable(),
    maxLeverage: z.number().int().min(1).max(1000).nullable(),
    maxDailyNotionalUsd: z.string().regex(GUARDRAIL_AMOUNT).nullable(),
    maxOpenPositions: z.number().int().min(1).max(10000).nullable(),
    allowedMarkets: z.array(z.enum(MARKET_NAMES)).min(1).nullable(),
    requireConfirmation: z.boolean(),
  })
  .strict();

export type GuardrailsPayload = z.infer<typeof guardrailsSchema>;

/**
 * Session-key registration and revocation, written to the exchange by trading-executor (the only writer
 * of exchange state) after it verifies the owner's EIP-712 approval. Job id = `sk-<sessionKey>` (BullMQ refuses `:` in
 * job ids).
 */
export const SESSION_KEYS_QUEUE = defineQueue(
  'exchange-session-keys',
  {
    'register-session-key': z
      .object({
        wallet: address,
        sessionKey: address,
        guardrails: guardrailsSchema,
        /** Unix seconds, at most 30 days ahead. */
        expiresAt: uint64,
        approvalSignature: signature65,
        label: z.string().max(120).nullable(),
      })
      .strict(),
    'revoke-session-key': z.object({ wallet: address, sessionKey: address }).strict(),
  },
  {
    'register-session-key': {
      attempts: 3,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: 1000,
      removeOnFail: 1000,
    },
    // A revocation must reach the exchange: retried for longer.
    'revoke-session-key': {
      attempts: 10,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: 1000,
      removeOnFail: 1000,
    },
  },
);

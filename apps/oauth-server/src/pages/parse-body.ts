import { CodedError } from '@paper/contracts';
import type { z } from 'zod';

/** A request body the pages' endpoints cannot accept (400, message names the field in plain words). */
export class InvalidRequestError extends CodedError<'invalid_request'> {
  constructor(message: string) {
    super('invalid_request', 400, message);
  }
}

const FIELD_NAMES: Record<string, string> = {
  wallet: 'Wallet address',
  signature: 'Signature',
  challengeId: 'Sign-in request',
  maxMarginPerTradeUsd: 'Maximum margin per trade',
  maxLeverage: 'Maximum leverage',
  maxDailyNotionalUsd: 'Maximum daily notional',
  maxOpenPositions: 'Maximum open positions',
  allowedMarkets: 'Markets',
  requireConfirmation: 'Preview before each open',
  expiresInDays: 'Key lifetime',
  usdc: 'Amount',
  guardrails: 'Limits',
};

/** Parses a JSON body against a schema or throws InvalidRequestError naming the first bad field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const key = [...issue.path].reverse().find((p) => typeof p === 'string');
  if (key === 'allowedMarkets' && issue.code === 'too_small')
    throw new InvalidRequestError('Markets: choose at least one market.');
  const field = key ? (FIELD_NAMES[key] ?? key) : 'Request';
  const text = issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  throw new InvalidRequestError(`${field}: ${text.replace(/\.$/, '')}.`);
}

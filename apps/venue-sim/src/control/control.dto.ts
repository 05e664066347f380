import { z } from 'zod';
import { MARKETS } from '../markets/market-spec';
import { ControlError, ControlErrorCode } from './control.exception';

const coin = z.enum(MARKETS.map((m) => m.coin) as ['BTC', 'ETH']);
/** A positive price as a number or a decimal string. */
const price = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .pipe(z.number().positive().max(1e9));

export const setPriceSchema = z.object({ coin, price });
export const pathSchema = z.object({
  coin,
  to: price,
  durationMs: z.number().int().positive().max(86_400_000),
  steps: z.number().int().positive().max(100_000).optional(),
});
export const freezeSchema = z.object({ frozen: z.boolean() });
export const failSchema = z.object({
  mode: z.enum(['none', 'error', 'timeout']),
  status: z.number().int().min(500).max(599).optional(),
  count: z.number().int().nonnegative().optional(),
});

/** Parses a control body or fails with 400 naming the field. */
export function parseControl<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new ControlError(ControlErrorCode.InvalidRequest, 400, `${field}${issue?.message ?? 'invalid body'}`);
}

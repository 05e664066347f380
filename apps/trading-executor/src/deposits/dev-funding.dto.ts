import { z } from 'zod';
import { DevFundingError, DevFundingErrorCode } from './dev-funding.exception';

const wallet = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 40-hex-digit address');
const amount = (max: number) =>
  z
    .union([z.string(), z.number()], { error: `must be a positive decimal amount of at most ${max}` })
    .transform((v) => String(v))
    .refine(
      (v) => /^\d+(\.\d+)?$/.test(v) && Number(v) > 0 && Number(v) <= max,
      `must be a positive decimal amount of at most ${max}`,
    );

/** POST /dev/faucet: credits the wallet's simulated chain balance (defaults: 10,000 USDC and 0.05 ETH). */
export const faucetSchema = z
  .object({ wallet, usdc: amount(1_000_000).optional(), eth: amount(10).optional() })
  .strict();

/** POST /dev/deposit: the wallet sends USDC to its deposit proxy; `sweep: true` credits it at once. */
export const depositSchema = z.object({ wallet, usdc: amount(1_000_000), sweep: z.boolean().optional() }).strict();

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const detail = result.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ');
    throw new DevFundingError(DevFundingErrorCode.InvalidArguments, `Invalid request: ${detail}.`);
  }
  return result.data;
}

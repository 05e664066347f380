import { GUARDRAIL_AMOUNT, guardrailsSchema } from '@paper/contracts';
import { z } from 'zod';

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x wallet address')
  .transform((v) => v.toLowerCase());
const signature = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte 0x signature') as unknown as z.ZodType<`0x${string}`>;

export const challengeBody = z.object({ wallet: address }).strict();
export const proofBody = z.object({ challengeId: z.uuid(), signature }).strict();

const positiveAmount = z
  .string()
  .regex(GUARDRAIL_AMOUNT, 'must be a USDC amount like 100 or 12.5 (at most 12 digits before the point and 6 after)')
  .refine((v) => Number(v) > 0, 'must be more than 0')
  .nullable();

export const approvalRequestBody = z
  .object({
    guardrails: guardrailsSchema.extend({ maxMarginPerTradeUsd: positiveAmount, maxDailyNotionalUsd: positiveAmount }),
    expiresInDays: z.number().int().min(1, 'must be at least 1 day').max(30, 'can be at most 30 days'),
  })
  .strict();
/** `readOnly`: the owner chose read-only access although the app asked to trade (no trading key, no trade:write). */
export const approveBody = z.object({ signature: signature.optional(), readOnly: z.boolean().optional() }).strict();

export type ApprovalRequestBody = z.infer<typeof approvalRequestBody>;
export type ApproveBody = z.infer<typeof approveBody>;

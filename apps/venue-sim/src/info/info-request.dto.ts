import { CANDLE_INTERVALS } from '@paper/upstream';
import { z } from 'zod';
import { InfoError, InfoErrorCode } from './info.exception';

const time = z.number().int().nonnegative();

/** The /info request bodies the simulator understands (extra fields are ignored, as on the venue). */
export const infoRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('allMids') }),
  z.object({ type: z.literal('l2Book'), coin: z.string().min(1) }),
  z.object({
    type: z.literal('candleSnapshot'),
    req: z.object({ coin: z.string().min(1), interval: z.enum(CANDLE_INTERVALS), startTime: time, endTime: time.optional() }),
  }),
  z.object({ type: z.literal('metaAndAssetCtxs') }),
]);

export type InfoRequest = z.infer<typeof infoRequestSchema>;

/** Parses a body or fails with 400 and the venue's wording. */
export function parseInfoRequest(body: unknown): InfoRequest {
  const result = infoRequestSchema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new InfoError(
    InfoErrorCode.InvalidRequest,
    400,
    `Failed to deserialize the JSON body into the target type: ${where}${issue?.message ?? 'invalid body'}`,
  );
}

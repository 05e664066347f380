import { MARKET_NAMES } from '@paper/markets';
import { z } from 'zod';

/**
 * Column shapes of the exchange's rows as node-postgres returns them, for the row schemas of the query
 * modules. The schemas type the rows; they are parsed against the real database by
 * tools/db/query-rows.int-spec.ts, never on the request or batch paths.
 */

/** A bigint column or a count: its decimal text. */
export const int8 = z.string().regex(/^-?\d+$/);
/** A numeric column or a sum of bigints (numeric in PostgreSQL): its decimal text. */
export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
export const int4 = z.number().int();
export const timestamp = z.date();
export const market = z.enum(MARKET_NAMES);
export const side = z.enum(['long', 'short']);
export const positionStatus = z.enum(['open', 'closed', 'liquidated']);
export const intentKind = z.enum(['open', 'close', 'cancel']);
export const intentStatus = z.enum(['queued', 'executed', 'refused', 'cancelled', 'expired']);
export const ownerActionKind = z.enum(['withdraw', 'stake', 'unstake', 'claim_rewards']);
export const ownerActionStatus = z.enum(['queued', 'executed', 'refused']);

/** A row of one id (bigint ids as text). */
export const IdRow = z.object({ id: z.string() });
export type IdRow = z.infer<typeof IdRow>;

/** A row of one wallet. */
export const WalletRow = z.object({ wallet: z.string() });
export type WalletRow = z.infer<typeof WalletRow>;

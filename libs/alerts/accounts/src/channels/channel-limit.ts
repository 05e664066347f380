import { channelCountOf } from '@paper/alerts-data';
import { ALERTS_LIMITS } from '@paper/alerts-delivery';
import { AlertsErrorCode } from '@paper/contracts';
import type { QueryExecutor } from '@paper/sql-rows';
import { AlertsException } from '../errors/alerts.exception';

/**
 * The one check of the channel limit (every way a channel is added: the API, a link code, the bot's
 * `/start`). Inside a transaction, lock the account first (lockAccount) so the answer holds until commit.
 */
export async function hasChannelRoom(db: QueryExecutor, accountId: string): Promise<boolean> {
  return (await channelCountOf(db, accountId)) < ALERTS_LIMITS.channelsPerAccount;
}

/** Refuses with `limit_reached` when the account already has the maximum number of channels. */
export async function assertChannelRoom(db: QueryExecutor, accountId: string): Promise<void> {
  if (await hasChannelRoom(db, accountId)) return;
  throw new AlertsException(
    AlertsErrorCode.LimitReached,
    `An account can have at most ${ALERTS_LIMITS.channelsPerAccount} channels. Delete one first.`,
  );
}

import { type QueryExecutor, queryRows } from '@paper/sql-rows';

/** The error of a delivery not sent because its channel was paused (the dispatcher records it, the bot counts it). */
export const NOT_SENT_PAUSED = 'not sent: the channel is paused';

/** Alerts of one kind held back from a channel. */
export interface HeldBackCount {
  kind: string;
  count: number;
}

/** How many alerts of each kind were held back from the channel while it was paused since `since`, most first. */
export function heldBackWhilePaused(db: QueryExecutor, channelId: string, since: Date): Promise<HeldBackCount[]> {
  return queryRows<HeldBackCount>(
    db,
    `SELECT a.kind, count(*)::int AS count
       FROM alerts.deliveries d JOIN alerts.alerts a ON a.id = d.alert_id
      WHERE d.channel_id = $1 AND d.status = 'dead' AND d.last_error = $2 AND d.updated_at >= $3
      GROUP BY a.kind ORDER BY count(*) DESC, a.kind`,
    [channelId, NOT_SENT_PAUSED, since],
  );
}

import { type QueryExecutor, queryAffected, queryRow } from '@paper/sql-rows';

/** A channel's deliveries by state, its newest error and its recent delivery latency. */
export interface ChannelHealthRow {
  delivered: number;
  failed: number;
  pending: number;
  dead: number;
  last_error: string | null;
  last_error_at: Date | null;
  /** Alert created → delivered, over deliveries delivered in the last 24 hours (null without any). */
  p50_ms: number | null;
  p99_ms: number | null;
}

const HEALTH = `
  SELECT count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered,
         count(*) FILTER (WHERE d.status = 'failed')::int AS failed,
         count(*) FILTER (WHERE d.status IN ('queued', 'sending'))::int AS pending,
         count(*) FILTER (WHERE d.status = 'dead')::int AS dead,
         (SELECT e.last_error FROM alerts.deliveries e WHERE e.channel_id = $1 AND e.last_error IS NOT NULL
           ORDER BY e.updated_at DESC, e.id DESC LIMIT 1) AS last_error,
         (SELECT max(e.updated_at) FROM alerts.deliveries e WHERE e.channel_id = $1 AND e.last_error IS NOT NULL) AS last_error_at,
         round(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.delivered_at - a.created_at) * 1000)
           FILTER (WHERE d.status = 'delivered' AND d.delivered_at > now() - interval '24 hours'))::int AS p50_ms,
         round(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM d.delivered_at - a.created_at) * 1000)
           FILTER (WHERE d.status = 'delivered' AND d.delivered_at > now() - interval '24 hours'))::int AS p99_ms
    FROM alerts.deliveries d
    JOIN alerts.alerts a ON a.id = d.alert_id
   WHERE d.channel_id = $1`;

/** The health of one channel (its id already checked to belong to the caller). */
export async function channelHealth(db: QueryExecutor, channelId: string): Promise<ChannelHealthRow> {
  return (await queryRow<ChannelHealthRow>(db, HEALTH, [channelId]))!;
}

/**
 * Re-queues the channel's failed and dead deliveries whose alert was created at or after `since`, at
 * most `limit` of them (oldest first): each becomes `queued`, due now, with its attempts starting over
 * and its event id kept. A delivery already queued again is not touched, so each is re-queued at most
 * once per recovery. Returns how many were re-queued.
 */
export function recoverChannelDeliveries(
  db: QueryExecutor,
  channelId: string,
  since: Date,
  limit: number,
): Promise<number> {
  return queryAffected(
    db,
    `UPDATE alerts.deliveries d SET status = 'queued', attempts = 0, rate_limited = 0, next_attempt_at = now(), updated_at = now()
      WHERE d.id IN (
        SELECT x.id FROM alerts.deliveries x JOIN alerts.alerts a ON a.id = x.alert_id
         WHERE x.channel_id = $1 AND x.status IN ('failed', 'dead') AND a.created_at >= $2
         ORDER BY a.created_at, x.id LIMIT $3
         FOR UPDATE OF x SKIP LOCKED)`,
    [channelId, since, limit],
  );
}

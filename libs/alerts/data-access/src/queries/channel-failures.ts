import { type QueryExecutor, queryRow } from '@paper/sql-rows';

/**
 * When a channel counts as failing for good: no success for `afterMs` and at least `minFailedAttempts` failed attempts.
 */
export interface SustainedFailurePolicy {
  afterMs: number;
  minFailedAttempts: number;
}

/** A channel that a failed attempt has just disabled. */
export interface DisabledChannelRow {
  account_id: string;
  id: string;
  kind: string;
  label: string | null;
  failing_since: Date;
  failed_attempts: number;
  disabled_reason: string;
  disabled_at: Date;
}

/**
 * Why an attempt on a channel failed: its receiver is gone for good (HTTP 410, an unknown Discord webhook,
 * a Telegram chat not found or a blocked bot; the receiver's answer is the reason), or it failed in a way
 * that may pass (disabling only when the failure is sustained, policy).
 */
export type ChannelFailure = { kind: 'gone'; reason: string } | { kind: 'failed'; policy: SustainedFailurePolicy };

const DISABLED_CHANNEL =
  'account_id, id, kind, label, failing_since, failed_attempts, disabled_reason, updated_at AS disabled_at';

/**
 * Records a failed attempt on a channel (its failing period starts at the first failure after a success).
 * A gone receiver disables the channel at once, a sustained failure (policy) too; either way the account is
 * told on its other active channels (queueChannelDisabledAlert), with the reason. Run in a transaction
 * (pass its manager). Returns the channel only when this call disabled it.
 */
export async function recordChannelFailure(
  db: QueryExecutor,
  channelId: string,
  failure: ChannelFailure,
): Promise<DisabledChannelRow | undefined> {
  await db.query(
    `UPDATE alerts.channels SET failing_since = coalesce(failing_since, now()), failed_attempts = failed_attempts + 1
      WHERE id = $1`,
    [channelId],
  );
  const disabled =
    failure.kind === 'gone'
      ? await queryRow<DisabledChannelRow>(
          db,
          `UPDATE alerts.channels SET status = 'disabled', updated_at = now(), disabled_reason = $2
            WHERE id = $1 AND status <> 'disabled'
            RETURNING ${DISABLED_CHANNEL}`,
          [channelId, failure.reason.slice(0, 500)],
        )
      : await queryRow<DisabledChannelRow>(
          db,
          `UPDATE alerts.channels
              SET status = 'disabled', updated_at = now(),
                  disabled_reason = 'no delivery succeeded since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                    || ' (' || failed_attempts || ' failed attempts); fix the receiver, set the channel active and recover what failed'
            WHERE id = $1 AND status = 'active'
              AND failing_since <= now() - make_interval(secs => $2::double precision / 1000)
              AND failed_attempts >= $3
            RETURNING ${DISABLED_CHANNEL}`,
          [channelId, failure.policy.afterMs, failure.policy.minFailedAttempts],
        );
  if (disabled) await queueChannelDisabledAlert(db, disabled);
  return disabled;
}

/**
 * Tells the account that a channel was disabled: a `channel_disabled` alert with a delivery to each of its
 * other active channels (event id derived from the channel and the moment it was disabled, so it is written
 * once). Returns how many deliveries were queued.
 */
async function queueChannelDisabledAlert(db: QueryExecutor, channel: DisabledChannelRow): Promise<number> {
  const eventId = `evt_channel_disabled_${channel.id.replace(/-/g, '')}_${channel.disabled_at.getTime()}`;
  const details = {
    channelId: channel.id,
    channelKind: channel.kind,
    channelLabel: channel.label,
    reason: channel.disabled_reason,
    failingSince: channel.failing_since.toISOString(),
    failedAttempts: channel.failed_attempts,
  };
  const row = await queryRow<{ n: number }>(
    db,
    `WITH a AS (
       INSERT INTO alerts.alerts (account_id, event_id, kind, details, occurred_at)
       VALUES ($1, $2, 'channel_disabled', $3::jsonb, now())
       ON CONFLICT (account_id, event_id) DO NOTHING
       RETURNING id, event_id),
     d AS (
       INSERT INTO alerts.deliveries (account_id, alert_id, channel_id, event_id)
       SELECT $1, a.id, c.id, a.event_id FROM a JOIN alerts.channels c ON c.account_id = $1 AND c.id <> $4 AND c.status = 'active'
       RETURNING 1)
     SELECT count(*)::int AS n FROM d`,
    [channel.account_id, eventId, JSON.stringify(details), channel.id],
  );
  return row?.n ?? 0;
}

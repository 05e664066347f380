import type { DeliveryJob } from '@paper/alerts-data';

const TRADE_RULES = {
  position_opened: 'opened',
  position_closed: 'closed',
  position_liquidated: 'liquidated',
} as const;

const minutes = (seconds: number) =>
  seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;

/**
 * Why a delivery is held back rather than sent, or undefined to send it. Checked when its turn comes, against the
 * watch as it is then:
 * - superseded: its rule was switched off, or a liquidation-risk alert's distance is no longer below the watch's
 *   threshold (lowered after the alert, e.g. /risk 50 then /risk 5);
 * - the watch is muted;
 * - the watch's cooldown: an alert of it was delivered to this channel less than its cooldown ago.
 */
export function heldBackReason(job: DeliveryJob, now = new Date()): string | undefined {
  const watch = job.watch;
  if (!watch) return undefined;
  const { kind, details } = job.alert;
  if (kind === 'liquidation_risk') {
    if (!watch.rules.liquidation.enabled) return 'the liquidation-risk rule of the watch was switched off';
    const distance = Number(details['distancePct']);
    if (Number.isFinite(distance) && distance >= watch.rules.liquidation.belowPct)
      return `the liquidation-risk threshold of the watch is now ${watch.rules.liquidation.belowPct}%`;
  }
  const rule = TRADE_RULES[kind as keyof typeof TRADE_RULES];
  if (rule && !watch.rules[rule]) return `the ${rule} rule of the watch was switched off`;
  if (watch.mutedUntil && watch.mutedUntil > now) return `the watch is muted until ${watch.mutedUntil.toISOString()}`;
  if (
    watch.cooldownS > 0 &&
    watch.lastDeliveredAt &&
    now.getTime() - watch.lastDeliveredAt.getTime() < watch.cooldownS * 1000
  )
    return `the watch is in its cooldown (at most one alert per ${minutes(watch.cooldownS)})`;
  return undefined;
}

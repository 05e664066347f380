import type { DeliveryJob } from '@paper/alerts-data';

const TRADE_RULES = {
  position_opened: 'opened',
  position_closed: 'closed',
  position_liquidated: 'liquidated',
} as const;

/**
 * Why a queued delivery would tell what its watch no longer asks for, or undefined when it still applies: its rule
 * was switched off, or a liquidation-risk alert's distance is no longer below the watch's threshold (the threshold
 * was lowered after the alert, e.g. /risk 50 then /risk 5). Such a delivery is not sent.
 */
export function supersededReason(job: DeliveryJob): string | undefined {
  const rules = job.watchRules;
  if (!rules) return undefined;
  const { kind, details } = job.alert;
  if (kind === 'liquidation_risk') {
    if (!rules.liquidation.enabled) return 'the liquidation-risk rule of the watch was switched off';
    const distance = Number(details['distancePct']);
    if (Number.isFinite(distance) && distance >= rules.liquidation.belowPct)
      return `the liquidation-risk threshold of the watch is now ${rules.liquidation.belowPct}%`;
    return undefined;
  }
  const rule = TRADE_RULES[kind as keyof typeof TRADE_RULES];
  if (rule && !rules[rule]) return `the ${rule} rule of the watch was switched off`;
  return undefined;
}

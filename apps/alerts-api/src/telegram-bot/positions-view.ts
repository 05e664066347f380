import type { WatchView } from '@paper/alerts-accounts';
import { GET_ACCOUNT, type ToolData } from '@paper/contracts';
import { watchName } from './bot-text';

/** Watched wallets per page of /positions (one exchange read each). */
export const POSITIONS_PAGE_WALLETS = 5;

export type OpenPosition = ToolData<typeof GET_ACCOUNT>['positions'][number];

/** The open positions of one watched wallet, or why they could not be read. */
export interface WalletPositions {
  watch: WatchView;
  positions?: OpenPosition[];
}

/** The open positions out of a get_account result envelope (undefined when it is no usable answer). */
export function positionsOf(envelope: Record<string, unknown>): OpenPosition[] | undefined {
  if (envelope['ok'] !== true) return undefined;
  const data = envelope['data'] as { positions?: unknown } | undefined;
  const parsed = GET_ACCOUNT.outputSchema.shape.positions.safeParse(data?.positions);
  return parsed.success ? parsed.data : undefined;
}

const format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
const money = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const signed = (n: number) => `${n > 0 ? '+' : ''}${money.format(n)}`;

/**
 * 🔴 below the watch's liquidation-risk threshold, 🟠 within twice that, 🟢 further away (the threshold is 5 % when
 * the rule is off, for the colour only).
 */
export function riskMarker(distancePct: number, watch: WatchView): string {
  const threshold = watch.rules.liquidation.enabled ? watch.rules.liquidation.belowPct : 5;
  if (distancePct < threshold) return '🔴';
  return distancePct < threshold * 2 ? '🟠' : '🟢';
}

/** One wallet's block: its name, then each open position, nearest to liquidation first. */
export function walletBlock({ watch, positions }: WalletPositions): string {
  const name = watchName(watch);
  if (!positions) return `${name}\nPositions cannot be read right now; try again shortly.`;
  if (positions.length === 0) return `${name}\nNo open positions.`;
  const lines = [...positions]
    .sort((a, b) => a.liquidationDistancePercent - b.liquidationDistancePercent)
    .map(
      (p) =>
        `${riskMarker(p.liquidationDistancePercent, watch)} ${p.market} ${p.side} ${p.leverage}x · margin ` +
        `${money.format(p.marginUsd)} USDC · PnL ${signed(p.estimatedPnlUsd)} USDC\n` +
        `    ${format.format(Number(p.liquidationDistancePercent.toFixed(3)))}% to liquidation · liquidation price ` +
        `${format.format(p.bustPrice)} (mark ${format.format(p.markPrice)})`,
    );
  return [name, ...lines].join('\n');
}

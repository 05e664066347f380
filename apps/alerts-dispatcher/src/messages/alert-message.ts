import type { AlertForDelivery } from '@paper/alerts-data';

export interface AlertMessage {
  title: string;
  lines: string[];
  /** Discord embed colour. */
  color: number;
  /** A sign of the kind shown before the title in chats (🔴 liquidation risk, 🟢 opened…). */
  marker: string;
}

/** The marker of each alert kind, so a glance at a chat tells them apart. */
export const KIND_MARKERS: Readonly<Record<string, string>> = {
  liquidation_risk: '🔴',
  position_opened: '🟢',
  position_closed: '🔵',
  position_liquidated: '💥',
  balance_change: '💰',
  session_key_expiring: '🔑',
  rewards: '🏆',
  mint_rate: '🏭',
  market_status: '🏪',
  channel_disabled: '⚠️',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** A time as people read it, in UTC: `1 Jan 2030, 00:00:05 UTC`. */
export function readableTime(date: Date): string {
  return (
    `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} UTC`
  );
}

export const DISCLAIMER = 'Alerts are best effort. This service is unofficial and not affiliated with the exchange.';

const RED = 0xdc2626;
const AMBER = 0xf59e0b;
const GREEN = 0x16a34a;
const BLUE = 0x3b82f6;
const GREY = 0x6b7280;

const text = (v: unknown): string => (v === undefined || v === null ? '?' : String(v));

/** One formatter per precision: building an Intl.NumberFormat costs far more than formatting with it. */
const formatters = new Map<number, Intl.NumberFormat>();

/** A number with thousands separators and up to `digits` decimals (`99,047.6`). */
export function amount(v: unknown, digits = 6): string {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) return text(v);
  let format = formatters.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits });
    formatters.set(digits, format);
  }
  return format.format(n);
}

export function usd(v: unknown): string {
  return `${amount(v, 2)} USDC`;
}

function signedUsd(v: unknown): string {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? `+${usd(v)}` : usd(v);
}

export function shortWallet(wallet: string | null): string {
  return wallet ? `${wallet.slice(0, 6)}…${wallet.slice(-4)}` : '';
}

/** The wallet line: short address plus the watch's label and role when set. */
export function walletLine(alert: AlertForDelivery): string | undefined {
  if (!alert.wallet) return undefined;
  const extra = [alert.watchLabel, alert.watchRole].filter(Boolean).join(', ');
  return `Wallet ${alert.wallet}${extra ? ` (${extra})` : ''}`;
}

function position(d: Record<string, unknown>): string {
  return `${text(d['market'])} ${text(d['side'])} ${text(d['leverage'])}x`;
}

function body(alert: AlertForDelivery): { title: string; lines: string[]; color: number } {
  const d = alert.details;
  switch (alert.kind) {
    case 'liquidation_risk':
      return {
        title: `Liquidation risk: ${position(d)}`,
        color: RED,
        lines: [
          `Distance to liquidation ${amount(d['distancePct'], 4)}% (alert below ${amount(d['belowPct'], 4)}%)`,
          `Mark ${amount(d['markPrice'])} · liquidation price ${amount(d['bustPrice'])} · entry ${amount(d['entryPrice'])}`,
          `Margin at risk ${usd(d['marginUsd'])} · position #${text(d['positionId'])}`,
        ],
      };
    case 'position_opened':
      return {
        title: `Position opened: ${position(d)}`,
        color: BLUE,
        lines: [
          `Entry ${amount(d['entryPrice'])} · margin ${usd(d['marginUsd'])} · notional ${usd(d['notionalUsd'])}`,
          `Position #${text(d['positionId'])}`,
        ],
      };
    case 'position_closed':
      return {
        title: `Position closed: ${position(d)}`,
        color: Number(d['pnlUsd']) >= 0 ? GREEN : AMBER,
        lines: [
          `Exit ${amount(d['exitPrice'])} · settled PnL ${signedUsd(d['pnlUsd'])}`,
          `Margin ${usd(d['marginUsd'])} · position #${text(d['positionId'])}`,
        ],
      };
    case 'position_liquidated':
      return {
        title: `Position liquidated: ${position(d)}`,
        color: RED,
        lines: [
          `Liquidated at ${amount(d['exitPrice'])} · margin lost ${usd(d['marginUsd'])}`,
          `Position #${text(d['positionId'])}`,
        ],
      };
    case 'balance_change':
      return {
        title: `Balance changed by ${signedUsd(d['changeUsd'])}`,
        color: AMBER,
        lines: [
          `${usd(d['previousUsd'])} → ${usd(d['currentUsd'])} (alert at a change of ${usd(d['thresholdUsd'])})`,
          `Free ${usd(d['freeUsd'])} · margin ${usd(d['lockedUsd'])} · queued ${usd(d['queuedUsd'])}`,
        ],
      };
    case 'session_key_expiring':
      return {
        title: `Session key expires in ${amount(d['daysLeft'], 1)} days`,
        color: AMBER,
        lines: [
          `Key ${text(d['sessionKey'])}${d['label'] ? ` (${text(d['label'])})` : ''}`,
          `Expires ${text(d['expiresAt'])}; approve a new key to keep trading.`,
        ],
      };
    case 'rewards':
      return {
        title: `Queued winnings above ${usd(d['aboveUsdc'])}`,
        color: GREEN,
        lines: [
          `Queued ${usd(d['queuedUsd'])} · PAPER ${amount(d['paper'], 2)} (staked ${amount(d['paperStaked'], 2)})`,
        ],
      };
    case 'mint_rate':
      return {
        title: 'PAPER mint rate above threshold',
        color: AMBER,
        lines: [
          `${amount(d['mintedLastHour'], 2)} PAPER minted in the last hour (alert above ${amount(d['thresholdPerHour'], 2)})`,
        ],
      };
    case 'market_status':
      return {
        title: `${text(d['market'])} market is now ${text(d['to'])}`,
        color: d['to'] === 'open' ? GREEN : AMBER,
        lines: [`It was ${text(d['from'])}.`],
      };
    case 'channel_disabled':
      return {
        title: `Channel disabled: ${text(d['channelLabel'] ?? d['channelKind'])}`,
        color: RED,
        lines: [
          `Channel ${text(d['channelId'])} (${text(d['channelKind'])}) was disabled: ${text(d['reason'])}.`,
          'After fixing the receiver: PATCH /api/channels/{id} {"status":"active"}, then POST ' +
            '/api/channels/{id}/recover.',
        ],
      };
    default:
      return {
        title: `Alert: ${alert.kind}`,
        color: GREY,
        lines: Object.entries(d).map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : text(v)}`),
      };
  }
}

/** Title and lines of an alert, the same facts on every channel kind. */
export function describeAlert(alert: AlertForDelivery): AlertMessage {
  const { title, lines, color } = body(alert);
  const wallet = walletLine(alert);
  return {
    title,
    color,
    marker: KIND_MARKERS[alert.kind] ?? '🔔',
    lines: [...(wallet ? [wallet] : []), ...lines, `At ${readableTime(alert.occurredAt)}`],
  };
}

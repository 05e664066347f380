import type { WalletRules } from '@paper/contracts';
import type { AccountData } from '../tool-api/tool-data';
import type { RuleAlert } from './rule-types';

const DAY_MS = 86_400_000;

/** Rule state `session_key`: the wallet's live session keys and whether their expiry was announced. */
export interface SessionKeyState {
  enabled: boolean;
  keys: Record<string, { expiresAt: string; notified: boolean }>;
}

function isDue(expiresAt: string, withinDays: number, now: number): boolean {
  const at = Date.parse(expiresAt);
  return at > now && at - withinDays * DAY_MS <= now;
}

/**
 * Session key expiring within `withinDays`: one alert per key and expiry time (a renewed key with a
 * new expiry can alert again). Revoked and expired keys are forgotten. The first evaluation, and the
 * first after the rule is turned on, mark keys already inside the window as announced, silently.
 */
export function evaluateSessionKeys(
  prev: SessionKeyState | undefined,
  rules: WalletRules,
  account: AccountData,
  now = Date.now(),
): { state: SessionKeyState; alerts: RuleAlert[] } {
  const enabled = rules.sessionKey.enabled;
  const silent = !prev || !prev.enabled || !enabled;
  const keys: SessionKeyState['keys'] = {};
  const alerts: RuleAlert[] = [];
  for (const key of account.sessionKeys) {
    if (!key.active || key.revokedAt || Date.parse(key.expiresAt) <= now) continue;
    const known = prev?.keys[key.address];
    let notified = known?.expiresAt === key.expiresAt ? known.notified : false;
    if (!notified && isDue(key.expiresAt, rules.sessionKey.withinDays, now)) {
      notified = true;
      if (!silent) {
        alerts.push({
          kind: 'session_key_expiring',
          episodeKey: `${key.address}:${key.expiresAt}`,
          occurredAt: new Date(now),
          details: {
            sessionKey: key.address,
            label: key.label,
            expiresAt: key.expiresAt,
            daysLeft: Math.round(((Date.parse(key.expiresAt) - now) / DAY_MS) * 100) / 100,
            withinDays: rules.sessionKey.withinDays,
          },
        });
      }
    }
    keys[key.address] = { expiresAt: key.expiresAt, notified };
  }
  return { state: { enabled, keys }, alerts };
}

/** True when a remembered key has entered the window without an alert yet: time to re-read the account. */
export function sessionKeyAlertDue(state: SessionKeyState | undefined, rules: WalletRules, now = Date.now()): boolean {
  if (!state || !rules.sessionKey.enabled || !state.enabled) return false;
  return Object.values(state.keys).some((k) => !k.notified && isDue(k.expiresAt, rules.sessionKey.withinDays, now));
}

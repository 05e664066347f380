import type { WalletRules, WalletRulesPatch } from '@paper/contracts';
import type { InlineKeyboard } from './telegram-bot.client';

/** Liquidation-risk thresholds offered as buttons (any value in range can be typed with /risk). */
export const RISK_CHOICES = [1, 2, 5, 10, 20] as const;

type Switch = 'opened' | 'closed' | 'liquidated' | 'risk';
const SWITCHES: readonly Switch[] = ['opened', 'closed', 'liquidated', 'risk'];

/** What a button press asks for: switch one rule, or set the liquidation-risk threshold. */
export type RuleButton = { watchId: string; switch: Switch } | { watchId: string; belowPct: number };

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const DATA = new RegExp(`^w:(${UUID}):(?:(opened|closed|liquidated|risk)|p(\\d{1,2}))$`);

/** callback_data of a button (at most 64 bytes: `w:<uuid>:liquidated` is 49). */
const data = (watchId: string, action: string) => `w:${watchId}:${action}`;

export function parseRuleButton(raw: string | undefined): RuleButton | undefined {
  const match = raw ? DATA.exec(raw) : null;
  if (!match) return undefined;
  if (match[2]) return { watchId: match[1]!, switch: match[2] as Switch };
  const belowPct = Number(match[3]);
  return (RISK_CHOICES as readonly number[]).includes(belowPct) ? { watchId: match[1]!, belowPct } : undefined;
}

/** The rules patch a press applies to the current rules. */
export function patchOf(button: RuleButton, rules: WalletRules): WalletRulesPatch {
  if ('belowPct' in button) return { liquidation: { enabled: true, belowPct: button.belowPct } };
  if (button.switch === 'risk') return { liquidation: { enabled: !rules.liquidation.enabled } };
  return { [button.switch]: !rules[button.switch] };
}

const mark = (on: boolean) => (on ? '✅' : '❌');
const isOn = (rules: WalletRules, s: Switch) => (s === 'risk' ? rules.liquidation.enabled : rules[s]);
const LABELS: Record<Switch, string> = {
  opened: 'Opened',
  closed: 'Closed',
  liquidated: 'Liquidated',
  risk: 'Liquidation risk',
};

/** Switches for the four trade rules, then one row of thresholds (the current one marked). */
export function rulesKeyboard(watchId: string, rules: WalletRules): InlineKeyboard {
  const toggle = (s: Switch) => ({ text: `${mark(isOn(rules, s))} ${LABELS[s]}`, callback_data: data(watchId, s) });
  return [
    SWITCHES.slice(0, 3).map(toggle),
    [toggle('risk')],
    RISK_CHOICES.map((p) => ({
      text: p === rules.liquidation.belowPct ? `• ${p}% •` : `${p}%`,
      callback_data: data(watchId, `p${p}`),
    })),
  ];
}

import type { WatchView } from '@paper/alerts-accounts';
import { WALLET_RULE_RANGES, type WalletRulesPatch } from '@paper/contracts';
import { BOT_COMMANDS } from './bot-commands';
import { esc, quote, ruleSummary, watchName } from './bot-text';

/** Rules of a watch added with /watch: the trade alerts and liquidation risk below 5%; the API-only rules off. */
export const BOT_WATCH_RULES: WalletRulesPatch = {
  liquidation: { enabled: true, belowPct: 5 },
  opened: true,
  closed: true,
  liquidated: true,
  balance: { enabled: false },
  sessionKey: { enabled: false },
  rewards: { enabled: false },
};

const usage = (name: string): string => {
  const spec = BOT_COMMANDS.find((c) => c.command === name);
  return `Usage: /${name}${spec?.args ? ` ${esc(spec.args)}` : ''}`;
};

/** The bot's fixed replies (HTML). */
export const REPLY = {
  started:
    'Alerts are set up: this chat receives the alerts of a new alerts account. Add a wallet with /watch ' +
    '&lt;address&gt; [label].',
  alreadyStarted: 'Alerts are already set up in this chat.',
  noAccount: 'This chat has no alerts yet. Send /start to set them up.',
  notOwner: 'Only the member who set up alerts in this chat can change them.',
  noWatches: 'No watches yet. Add one with /watch &lt;address&gt; [label].',
  noAlerts: 'No alerts yet.',
  noChannel:
    'This chat no longer receives alerts (it was removed from the account through the API). Send /start to add it ' +
    'again.',
  paused: 'Paused: this chat receives no alerts until /resume. Alerts are still recorded (/history).',
  resumed: 'Resumed: this chat receives alerts again.',
  notADuration: (max: string) => `The duration must be minutes, hours or days up to ${max} (e.g. 30m, 2h, 1d), or off.`,
  staleButton: 'This button is no longer valid. Send /rules again.',
  notAPercentage: `pct must be a percentage from ${WALLET_RULE_RANGES.belowPct.min} to ${WALLET_RULE_RANGES.belowPct.max}, e.g. 5 or 2.5%.`,
  tokenSentPrivately: 'I sent you the API token in a private chat.',
  usage,
  flooded: (ignored: number) =>
    `Too many messages at once: the last ${ignored} were ignored. Send them again one at a time.`,
  unknownCommand: (name: string) => `Unknown command /${quote(name)}. Send /help for the commands.`,
  noMatch: (ref: string) => `No watch matches “${quote(ref)}”. /list shows your watches.`,
  ambiguous: (ref: string) => `Several watches match “${quote(ref)}”: name one by its address.`,
  channelNotActive: (status: string) => `Alerts in this chat are ${esc(status)} (/resume).`,
  rules: (watch: WatchView) =>
    `Rules of ${watchName(watch)}\n${ruleSummary(watch.rules)}\n\nTap a rule to switch it, or a percentage for the liquidation-risk threshold.`,
  token: (token: string, apiBase: string) => {
    const base = esc(apiBase.replace(/\/+$/, ''));
    return (
      `Your alerts API token (it replaces any earlier one; keep it secret):\n<code>${esc(token)}</code>\n\n` +
      `Send it as <code>Authorization: Bearer &lt;token&gt;</code> to the alerts API at ${base} ` +
      `(e.g. GET ${base}/api/me) or to its MCP endpoint ${base}/mcp.`
    );
  },
  tokenNeedsPrivateChat: (username: string | undefined) =>
    `I cannot write to you privately yet: open a chat with ${username ? `@${esc(username)}` : 'me'}, press Start, then send /token here again.`,
};

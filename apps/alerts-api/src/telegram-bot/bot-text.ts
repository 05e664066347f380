import { escapeTelegramHtml, TELEGRAM_TEXT_LIMIT } from '@paper/alerts-delivery';
import type { WalletRules } from '@paper/contracts';
import { BOT_COMMANDS } from './bot-commands';

export const esc = escapeTelegramHtml;

/** A watch as the bot names it: its label in bold (when it has one) and its address. */
export function watchName(watch: { address: string; label: string | null }): string {
  return watch.label ? `<b>${esc(watch.label)}</b> <code>${watch.address}</code>` : `<code>${watch.address}</code>`;
}

const pct = (value: number) => `${Number(value.toPrecision(6))}%`;

/** The rules that are on, in words. */
export function ruleSummary(rules: WalletRules): string {
  const on = [
    rules.liquidation.enabled ? `liquidation risk below ${pct(rules.liquidation.belowPct)}` : undefined,
    rules.opened ? 'opened' : undefined,
    rules.closed ? 'closed' : undefined,
    rules.liquidated ? 'liquidated' : undefined,
    rules.balance.enabled ? `balance change of $${rules.balance.changeUsd}` : undefined,
    rules.sessionKey.enabled ? `session key expiring within ${rules.sessionKey.withinDays} days` : undefined,
    rules.rewards.enabled ? `rewards above ${rules.rewards.aboveUsdc} USDC` : undefined,
  ].filter(Boolean);
  return on.length > 0 ? on.join(' · ') : 'no rules on';
}

/** User text quoted back in a reply: escaped and cut to 64 characters, so an echo never makes a reply too long. */
export function quote(text: string): string {
  const chars = [...text];
  return esc(chars.length > 64 ? `${chars.slice(0, 63).join('')}…` : text);
}

const TAGS = /<[^>]*>/g;

/** The text Telegram shows for an HTML message (tags removed, entities decoded): what its 4096 limit counts. */
export function visibleText(html: string): string {
  return html
    .replace(TAGS, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/**
 * A reply within Telegram's limit: unchanged when it fits, otherwise its visible text cut at the limit (markup
 * dropped, so no tag is left open).
 */
export function withinTelegramLimit(html: string): string {
  const visible = visibleText(html);
  if (visible.length <= TELEGRAM_TEXT_LIMIT) return html;
  // Telegram counts UTF-16 code units; a cut never splits a surrogate pair.
  const cut = visible.slice(0, TELEGRAM_TEXT_LIMIT - 1).replace(/[\uD800-\uDBFF]$/, '');
  return esc(`${cut}…`);
}

export function utc(date: Date | string): string {
  return `${new Date(date).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Joins a header and blocks into one message within Telegram's 4096 characters; blocks that do not
 * fit are counted in a closing line (`more(n)`), never cut in the middle.
 */
export function fitMessage(header: string, blocks: readonly string[], more: (left: number) => string): string {
  let text = header;
  for (let i = 0; i < blocks.length; i += 1) {
    const next = `${text}\n\n${blocks[i]}`;
    const tail = i + 1 < blocks.length ? `\n\n${more(blocks.length - i - 1)}` : '';
    if (next.length + tail.length > TELEGRAM_TEXT_LIMIT) return `${text}\n\n${more(blocks.length - i)}`;
    text = next;
  }
  return text;
}

export function helpText(): string {
  const lines = BOT_COMMANDS.map((c) => `/${c.command}${c.args ? ` ${esc(c.args)}` : ''} — ${esc(c.description)}`);
  return [
    '<b>Wallet alerts</b>',
    ...lines,
    '',
    'In a group, only the member who set up alerts can change them. Alerts are best effort; this service is ' +
      'unofficial and not affiliated with the exchange.',
  ].join('\n');
}

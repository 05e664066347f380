import { TELEGRAM_TEXT_LIMIT } from '@paper/alerts-delivery';
import { DEFAULT_WALLET_RULES, mergeWalletRules } from '@paper/contracts';
import { menuCommands } from './bot-commands';
import { fitMessage, helpText, quote, ruleSummary, visibleText, watchName, withinTelegramLimit } from './bot-text';
import { isForBot, parseCommand } from './command-parser';
import { durationText, parseDuration } from './durations';
import { pageKeyboard, pageOf, parsePageButton } from './page-buttons';
import type { TelegramUpdate } from './telegram-bot.client';
import { turnsOf } from './update-batches';
import { parseRuleButton, patchOf, rulesKeyboard } from './rules-keyboard';

const WATCH = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';

describe('bot commands, texts and keyboards', () => {
  it('parses commands, their bot address and arguments', () => {
    expect(parseCommand('/watch@Alerts_Bot 0xabc  my  label ')).toEqual({
      name: 'watch',
      addressedTo: 'Alerts_Bot',
      rest: '0xabc  my  label',
      args: ['0xabc', 'my', 'label'],
    });
    expect(parseCommand('/LIST')).toEqual({ name: 'list', addressedTo: undefined, rest: '', args: [] });
    expect(parseCommand('hello /list')).toBeUndefined();
    expect(parseCommand('/')).toBeUndefined();
    expect(isForBot(parseCommand('/list@other_bot')!, 'alerts_bot')).toBe(false);
    expect(isForBot(parseCommand('/list@ALERTS_bot')!, 'alerts_bot')).toBe(true);
    expect(isForBot(parseCommand('/list')!, 'alerts_bot')).toBe(true);
  });

  it('registers a menu Telegram accepts: 1-32 lower-case characters, descriptions up to 256', () => {
    const menu = menuCommands();
    expect(menu.map((c) => c.command)).toEqual([
      'start',
      'watch',
      'unwatch',
      'list',
      'positions',
      'rules',
      'risk',
      'mute',
      'cooldown',
      'pause',
      'resume',
      'history',
      'token',
      'help',
    ]);
    for (const c of menu) {
      expect(c.command).toMatch(/^[a-z0-9_]{1,32}$/);
      expect(c.description.length).toBeGreaterThan(0);
      expect(c.description.length).toBeLessThanOrEqual(256);
    }
    expect(helpText()).toContain('/watch &lt;address&gt; [label] — Watch a wallet');
  });

  it('escapes labels for HTML and names a watch by label and address', () => {
    expect(watchName({ address: '0xab', label: '<b>&me' })).toBe('<b>&lt;b&gt;&amp;me</b> <code>0xab</code>');
    expect(watchName({ address: '0xab', label: null })).toBe('<code>0xab</code>');
  });

  it('summarises the rules that are on', () => {
    const rules = mergeWalletRules(DEFAULT_WALLET_RULES, {
      liquidation: { belowPct: 2.5 },
      closed: false,
      sessionKey: { enabled: false },
    });
    expect(ruleSummary(rules)).toBe('liquidation risk below 2.5% · opened · liquidated');
    expect(
      ruleSummary(mergeWalletRules(rules, { liquidation: { enabled: false }, opened: false, liquidated: false })),
    ).toBe('no rules on');
  });

  it('keeps whole blocks within 4096 characters and counts those left out', () => {
    const blocks = Array.from({ length: 100 }, (_, i) => `block ${i} ${'x'.repeat(100)}`);
    const text = fitMessage('<b>Head</b>', blocks, (n) => `… and ${n} more`);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    const shown = text.split('\n\n').filter((b) => b.startsWith('block ')).length;
    expect(text.endsWith(`… and ${100 - shown} more`)).toBe(true);
    expect(shown).toBeGreaterThan(30);
    expect(fitMessage('H', ['a', 'b'], () => 'more')).toBe('H\n\na\n\nb');
  });

  it('builds rule buttons within 64 bytes of callback data and reads them back', () => {
    const rules = mergeWalletRules(DEFAULT_WALLET_RULES, { liquidation: { belowPct: 5 }, closed: false });
    const keyboard = rulesKeyboard(WATCH, rules);
    expect(keyboard.map((row) => row.map((b) => b.text))).toEqual([
      ['✅ Opened', '❌ Closed', '✅ Liquidated'],
      ['✅ Liquidation risk'],
      ['1%', '2%', '• 5% •', '10%', '20%'],
    ]);
    for (const button of keyboard.flat()) expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(64);
    expect(parseRuleButton(`w:${WATCH}:closed`)).toEqual({ watchId: WATCH, switch: 'closed' });
    expect(patchOf(parseRuleButton(`w:${WATCH}:closed`)!, rules)).toEqual({ closed: true });
    expect(patchOf(parseRuleButton(`w:${WATCH}:risk`)!, rules)).toEqual({ liquidation: { enabled: false } });
    expect(patchOf(parseRuleButton(`w:${WATCH}:p10`)!, rules)).toEqual({
      liquidation: { enabled: true, belowPct: 10 },
    });
    expect(parseRuleButton(`w:${WATCH}:p7`)).toBeUndefined();
    expect(parseRuleButton(`w:not-a-uuid:closed`)).toBeUndefined();
    expect(parseRuleButton(undefined)).toBeUndefined();
  });

  it('quotes user text cut to 64 characters, and cuts any reply to 4096 visible characters without markup', () => {
    expect(quote('<x>')).toBe('&lt;x&gt;');
    expect(quote('y'.repeat(4096))).toBe(`${'y'.repeat(63)}…`);
    const fits = `<b>${'&amp;'.repeat(4096)}</b>`;
    expect(withinTelegramLimit(fits)).toBe(fits);
    const long = withinTelegramLimit(`<b>${'&lt;'.repeat(5000)}</b>`);
    expect(visibleText(long)).toHaveLength(TELEGRAM_TEXT_LIMIT);
    expect(long).not.toContain('<b>');
    expect(visibleText(withinTelegramLimit('😀'.repeat(3000))).endsWith('😀…')).toBe(true);
  });

  it('reads durations and pages', () => {
    expect(parseDuration('30m')).toBe(1800);
    expect(parseDuration('2H')).toBe(7200);
    expect(parseDuration('1d')).toBe(86_400);
    expect(parseDuration('soon')).toBeUndefined();
    expect(durationText(93_600)).toBe('1 d 2 h');
    expect(pageOf(23, 10, 9)).toEqual({ page: 3, pages: 3, from: 20 });
    expect(pageOf(0, 10, 1)).toEqual({ page: 1, pages: 1, from: 0 });
    expect(pageKeyboard('list', 1, 1)).toBeUndefined();
    expect(pageKeyboard('positions', 2, 2)).toEqual([[{ text: '‹ Page 1', callback_data: 'p:1' }]]);
    expect(parsePageButton('l:12')).toEqual({ view: 'list', page: 12 });
    expect(parsePageButton('x:1')).toBeUndefined();
  });

  it('splits a batch of updates by chat, each in order, and counts what a flooding chat sent beyond its burst', () => {
    const message = (id: number, chat: number): TelegramUpdate => ({
      update_id: id,
      message: { message_id: id, text: '/list', chat: { id: chat, type: 'private' }, from: { id: chat } },
    });
    const turns = turnsOf([1, 2, 3, 4, 5].map((id) => message(id, 7)).concat([message(6, 8)]), 3);
    expect(turns.map((t) => [t.chatId, t.handle.map((u) => u.update_id), t.ignored])).toEqual([
      ['7', [1, 2, 3], 2],
      ['8', [6], 0],
    ]);
  });
});

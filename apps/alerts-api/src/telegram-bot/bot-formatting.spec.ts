import { TELEGRAM_TEXT_LIMIT } from '@paper/alerts-delivery';
import { DEFAULT_WALLET_RULES, mergeWalletRules } from '@paper/contracts';
import { menuCommands } from './bot-commands';
import { fitMessage, helpText, ruleSummary, watchName } from './bot-text';
import { isForBot, parseCommand } from './command-parser';
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
      'rules',
      'risk',
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
});

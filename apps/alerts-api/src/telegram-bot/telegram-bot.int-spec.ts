import { hashToken } from '@paper/alerts-accounts';
import { startTelegramFake, type TelegramFake } from '@paper/dev-stack';
import { BotTestKit } from '../testing/bot-test-kit';
import { menuCommands } from './bot-commands';
import type { UpdateOutcome } from './telegram-updates.service';

const A = '0x52908400098527886E0F7030069857D2E4169EE7';
const a = A.toLowerCase();
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d';
const C = '0xde709f2102306220921060314715629080e2fb77';
const D = '0x27b1fdb04752bbc536007a920d24acb045561c26';
const OWNER = 4242;
const STRANGER = 5353;
const GROUP = -1_001_234_567;
const WATCH_RULES = {
  liquidation: { enabled: true, belowPct: 5 },
  opened: true,
  closed: true,
  liquidated: true,
  balance: { enabled: false, changeUsd: 1000 },
  sessionKey: { enabled: false, withinDays: 3 },
  rewards: { enabled: false, aboveUsdc: 100 },
};

describe('Telegram bot commands (Bot API stand-in, PostgreSQL, Redis)', () => {
  let kit: BotTestKit;
  let telegram: TelegramFake;
  let offset: number | undefined;

  beforeAll(async () => {
    telegram = await startTelegramFake({ perChatPerSecond: 1000, privateChatsNeedStart: true });
    kit = await BotTestKit.start({
      TELEGRAM_API_BASE: telegram.apiBase,
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_UPDATES_MODE: 'off',
      ALERTS_MAX_WATCHES: '3',
      // As fast as the stand-in allows per chat; the shared buckets themselves are held by telegram-link.int-spec.
      ALERTS_TELEGRAM_CHAT_RATE: '1000/1000',
    });
  });

  afterAll(async () => {
    await kit?.stop();
    await telegram?.close();
  });

  /** Takes the pending updates from the Bot API (getUpdates) and handles them as the long poller does. */
  const drain = async (): Promise<UpdateOutcome[]> => {
    const outcomes: UpdateOutcome[] = [];
    for (const update of await kit.client.getUpdates(offset, 0)) {
      outcomes.push(await kit.updates.process(update));
      offset = update.update_id + 1;
    }
    return outcomes;
  };
  const say = async (chat: number, text: string, from?: number): Promise<UpdateOutcome> => {
    telegram.userSends(chat, text, chat < 0 ? 'group' : 'private', from);
    const [outcome] = await drain();
    return outcome!;
  };
  const press = async (chat: number, messageId: number, data: string, from?: number): Promise<UpdateOutcome> => {
    telegram.userPresses(chat, messageId, data, from);
    const [outcome] = await drain();
    return outcome!;
  };
  const last = (chat: number) => {
    const sent = telegram.delivered(chat).at(-1)!;
    return { ...telegram.message(chat, sent.messageId!)!, id: sent.messageId! };
  };
  const lastText = (chat: number) => last(chat).text;
  const accountOf = async (chat: number) =>
    (await kit.db.query(`SELECT account_id, owner_user_id FROM alerts.telegram_chats WHERE chat_id = $1`, [chat])) as {
      account_id: string;
      owner_user_id: string;
    }[];
  const accountIdOf = async (chat: number): Promise<string> => {
    const [row] = await accountOf(chat);
    if (!row) throw new Error(`chat ${chat} has no account`);
    return row.account_id;
  };
  const watchRules = async (accountId: string, address: string) =>
    (
      (await kit.db.query(`SELECT rules FROM alerts.watches WHERE account_id = $1 AND address = $2`, [
        accountId,
        address,
      ])) as { rules: typeof WATCH_RULES }[]
    )[0]?.rules;

  it('registers its command menu and learns its username', async () => {
    await kit.identity.register();
    expect(kit.identity.username).toBe(telegram.username);
    // The menu itself (its commands and limits) is held by bot-formatting.spec.
    expect(telegram.commands()).toEqual(menuCommands());
  });

  it('/start creates an account bound to the chat, with the chat as its first channel; a second /start creates nothing', async () => {
    expect(await say(100, '/list')).toBe('no_account');
    expect(lastText(100)).toBe('This chat has no alerts yet. Send /start to set them up.');
    expect(await say(100, '/start')).toBe('started');
    expect(lastText(100)).toMatch(
      /^Alerts are set up: this chat receives the alerts of a new alerts account\. Add a wallet with \/watch <address> \[label\]\.\n\nWallet alerts\n\/start — Set up alerts in this chat\n\/watch <address> \[label\] — Watch a wallet/,
    );
    const [bound] = await accountOf(100);
    expect(bound).toEqual({ account_id: expect.any(String), owner_user_id: '100' });
    expect(
      await kit.db.query(`SELECT kind, target, status, label FROM alerts.channels WHERE account_id = $1`, [
        bound!.account_id,
      ]),
    ).toEqual([{ kind: 'telegram', target: '100', status: 'active', label: 'Telegram Tester' }]);
    expect(await say(100, '/start')).toBe('already_started');
    expect(lastText(100)).toMatch(/^Alerts are already set up in this chat\./);
    expect(
      await kit.db.query(
        `SELECT count(*)::int AS n FROM alerts.telegram_chats t JOIN alerts.accounts a ON a.id = t.account_id WHERE t.chat_id = 100`,
      ),
    ).toEqual([{ n: 1 }]);
  });

  it('/watch adds a wallet with the bot defaults, validated as the API validates, up to the account limit', async () => {
    const account_id = await accountIdOf(100);
    expect(await say(100, `/watch ${A}  Main <desk> & co`)).toBe('watching');
    expect(lastText(100)).toBe(
      `Watching Main <desk> & co ${a}.\nRules: liquidation risk below 5% · opened · closed · liquidated.\nChange them with /rules Main <desk> & co`,
    );
    expect(await watchRules(account_id, a)).toEqual(WATCH_RULES);
    expect(await say(100, `/watch ${A.toLowerCase()}`)).toBe('already_watching');
    expect(lastText(100)).toBe(
      `Already watching Main <desk> & co ${a}.\nRules: liquidation risk below 5% · opened · closed · liquidated.`,
    );
    expect(await say(100, '/watch 0x1234')).toBe('refused');
    expect(lastText(100)).toBe('address must be a 0x-prefixed 40-hex-digit wallet address.');
    expect(await say(100, `/watch ${B} ${'x'.repeat(101)}`)).toBe('refused');
    expect(lastText(100)).toBe('label must be shorter than or equal to 100 characters.');
    expect(await say(100, '/watch')).toBe('usage');
    expect(lastText(100)).toBe('Usage: /watch <address> [label]');
    expect(await say(100, `/watch ${B} second`)).toBe('watching');
    expect(await say(100, `/watch ${C}`)).toBe('watching');
    expect(await say(100, `/watch ${D}`)).toBe('refused');
    expect(lastText(100)).toBe('An account can have at most 3 watches. Delete one first.');
  });

  it('/list shows every watch with its rules and last alert', async () => {
    const account_id = await accountIdOf(100);
    const channel = (
      (await kit.db.query(`SELECT id FROM alerts.channels WHERE account_id = $1`, [account_id])) as { id: string }[]
    )[0]!.id;
    await kit.delivery(account_id, channel, 'position_opened');
    await kit.db.query(
      `UPDATE alerts.alerts SET watch_id = (SELECT id FROM alerts.watches WHERE account_id = $1 AND address = $2), created_at = '2026-11-20T08:30:00Z' WHERE account_id = $1`,
      [account_id, a],
    );
    expect(await say(100, '/list')).toBe('listed');
    expect(lastText(100)).toBe(
      [
        'Watches (3 of 3)',
        `Main <desk> & co ${a}\nliquidation risk below 5% · opened · closed · liquidated\nLast alert: 2026-11-20 08:30 UTC`,
        `second ${B}\nliquidation risk below 5% · opened · closed · liquidated\nLast alert: none yet`,
        `${C}\nliquidation risk below 5% · opened · closed · liquidated\nLast alert: none yet`,
      ].join('\n\n'),
    );
  });

  it('/rules shows switches; a press changes the rule, answers the press and redraws the message', async () => {
    const account_id = await accountIdOf(100);
    const watchId = (
      (await kit.db.query(`SELECT id FROM alerts.watches WHERE account_id = $1 AND address = $2`, [account_id, B])) as {
        id: string;
      }[]
    )[0]!.id;
    expect(await say(100, '/rules SECOND')).toBe('rules_shown');
    const shown = last(100);
    expect(shown.text).toBe(
      `Rules of second ${B}\nliquidation risk below 5% · opened · closed · liquidated\n\nTap a rule to switch it, or a percentage for the liquidation-risk threshold.`,
    );
    const button = (text: string, action: string) => ({ text, callback_data: `w:${watchId}:${action}` });
    expect(shown.keyboard).toEqual([
      [button('✅ Opened', 'opened'), button('✅ Closed', 'closed'), button('✅ Liquidated', 'liquidated')],
      [button('✅ Liquidation risk', 'risk')],
      [button('1%', 'p1'), button('2%', 'p2'), button('• 5% •', 'p5'), button('10%', 'p10'), button('20%', 'p20')],
    ]);
    expect(await press(100, shown.id, `w:${watchId}:closed`)).toBe('rule_switched');
    expect(telegram.callbackAnswers.at(-1)).toEqual({
      id: expect.any(String),
      text: 'Saved: liquidation risk below 5% · opened · liquidated',
      showAlert: false,
    });
    expect(telegram.message(100, shown.id)!.keyboard![0]![1]).toEqual(button('❌ Closed', 'closed'));
    expect(await press(100, shown.id, `w:${watchId}:p10`)).toBe('rule_switched');
    expect(telegram.message(100, shown.id)!.text).toContain('liquidation risk below 10% · opened · liquidated');
    expect(await watchRules(account_id, B)).toMatchObject({
      closed: false,
      liquidation: { enabled: true, belowPct: 10 },
    });
    expect(await say(100, '/rules nobody')).toBe('no_match');
    expect(lastText(100)).toBe('No watch matches “nobody”. /list shows your watches.');
  });

  it('/risk sets the threshold within the API bounds, with the API messages', async () => {
    const account_id = await accountIdOf(100);
    expect(await say(100, '/risk main <desk> & co 2.5%')).toBe('risk_set');
    expect(lastText(100)).toBe(`Liquidation risk of Main <desk> & co ${a} now alerts below 2.5%.`);
    expect((await watchRules(account_id, a))!.liquidation).toEqual({ enabled: true, belowPct: 2.5 });
    expect(await say(100, `/risk ${A} 51`)).toBe('refused');
    expect(lastText(100)).toBe('rules.liquidation.belowPct must not be greater than 50.');
    expect(await say(100, `/risk ${A} lots`)).toBe('refused');
    expect(lastText(100)).toBe('pct must be a percentage from 0.001 to 50, e.g. 5 or 2.5%.');
    expect(await say(100, `/risk ${A} 0`)).toBe('refused');
    expect(lastText(100)).toBe('rules.liquidation.belowPct must not be less than 0.001.');
    expect(await say(100, `/risk ${A}`)).toBe('usage');
    expect(lastText(100)).toBe('Usage: /risk <address|label> <pct>');
  });

  it('/pause and /resume switch the chat channel; /unwatch removes a watch', async () => {
    const account_id = await accountIdOf(100);
    expect(await say(100, '/pause')).toBe('paused');
    expect(await kit.db.query(`SELECT status FROM alerts.channels WHERE account_id = $1`, [account_id])).toEqual([
      { status: 'paused' },
    ]);
    expect(await say(100, '/list')).toBe('listed');
    expect(lastText(100)).toMatch(/^Watches \(3 of 3\)\nAlerts in this chat are paused \(\/resume\)\./);
    expect(await say(100, '/resume')).toBe('resumed');
    expect(lastText(100)).toBe('Resumed: this chat receives alerts again.');
    expect(await kit.db.query(`SELECT status FROM alerts.channels WHERE account_id = $1`, [account_id])).toEqual([
      { status: 'active' },
    ]);
    expect(await say(100, `/unwatch ${C}`)).toBe('unwatched');
    expect(lastText(100)).toBe(`Stopped watching ${C}.`);
    expect(await say(100, `/unwatch ${C}`)).toBe('no_match');
  });

  it('/history lists the last alerts with their delivery status', async () => {
    expect(await say(100, '/history')).toBe('history');
    expect(lastText(100)).toBe(
      `Last alerts\n\n2026-11-20 08:30 UTC · position opened · Main <desk> & co ${a}\ntelegram (Telegram Tester): queued`,
    );
    expect(await say(101, '/start')).toBe('started');
    expect(await say(101, '/history')).toBe('history');
    expect(lastText(101)).toBe('No alerts yet.');
  });

  it('/token shows a new API token once, in private, and it replaces the stored one', async () => {
    const account_id = await accountIdOf(100);
    expect(await say(100, '/token')).toBe('token_sent');
    const token = /alrt_[0-9a-f]{32}_[A-Za-z0-9_-]{43}/.exec(lastText(100))![0];
    expect(lastText(100)).toMatch(/^Your alerts API token \(it replaces any earlier one; keep it secret\):\nalrt_/);
    expect(await kit.db.query(`SELECT token_hash FROM alerts.accounts WHERE id = $1`, [account_id])).toEqual([
      { token_hash: hashToken(token) },
    ]);
  });

  it('answers unknown commands and plain text in private chats, and ignores commands for other bots', async () => {
    expect(await say(100, '/frobnicate now')).toBe('unknown_command');
    expect(lastText(100)).toBe('Unknown command /frobnicate. Send /help for the commands.');
    expect(await say(100, 'hello?')).toBe('help');
    expect(lastText(100)).toMatch(/^Wallet alerts\n/);
    const before = telegram.delivered(100).length;
    expect(await say(100, '/list@some_other_bot')).toBe('ignored');
    expect(telegram.delivered(100)).toHaveLength(before);
    expect(await say(100, `/list@${telegram.username}`)).toBe('listed');
  });

  describe('in a group', () => {
    it('binds the group to the member who sent /start; others may read but not change', async () => {
      expect(await say(GROUP, `/start@${telegram.username}`, OWNER)).toBe('started');
      expect(await accountOf(GROUP)).toEqual([{ account_id: expect.any(String), owner_user_id: String(OWNER) }]);
      expect(await say(GROUP, `/watch ${A} desk`, OWNER)).toBe('watching');
      expect(await say(GROUP, `/watch ${B}`, STRANGER)).toBe('not_owner');
      expect(lastText(GROUP)).toBe('Only the member who set up alerts in this chat can change them.');
      expect(await say(GROUP, '/pause', STRANGER)).toBe('not_owner');
      expect(await say(GROUP, '/start', STRANGER)).toBe('already_started');
      expect(await accountOf(GROUP)).toEqual([{ account_id: expect.any(String), owner_user_id: String(OWNER) }]);
      expect(await say(GROUP, '/list', STRANGER)).toBe('listed');
      expect(await say(GROUP, 'just chatting', STRANGER)).toBe('ignored');
    });

    it('refuses a stranger pressing a rule button', async () => {
      expect(await say(GROUP, '/rules desk', STRANGER)).toBe('rules_shown');
      const shown = last(GROUP);
      const data = shown.keyboard![0]![0]!.callback_data;
      expect(await press(GROUP, shown.id, data, STRANGER)).toBe('not_owner');
      expect(telegram.callbackAnswers.at(-1)).toMatchObject({
        text: 'Only the member who set up alerts in this chat can change them.',
        showAlert: true,
      });
      expect(telegram.message(GROUP, shown.id)!.keyboard).toEqual(shown.keyboard);
      expect(await press(GROUP, shown.id, data, OWNER)).toBe('rule_switched');
    });

    it('/token goes to the owner privately, once the owner has opened a chat with the bot', async () => {
      const account_id = await accountIdOf(GROUP);
      const stored = await kit.db.query(`SELECT token_hash FROM alerts.accounts WHERE id = $1`, [account_id]);
      expect(await say(GROUP, '/token', OWNER)).toBe('token_needs_private_chat');
      expect(lastText(GROUP)).toBe(
        `I cannot write to you privately yet: open a chat with @${telegram.username}, press Start, then send /token here again.`,
      );
      expect(await kit.db.query(`SELECT token_hash FROM alerts.accounts WHERE id = $1`, [account_id])).toEqual(stored);
      expect(await say(OWNER, '/help')).toBe('help');
      expect(await say(GROUP, '/token', OWNER)).toBe('token_sent');
      expect(lastText(GROUP)).toBe('I sent you the API token in a private chat.');
      const token = /alrt_\S+/.exec(lastText(OWNER))![0];
      expect(await kit.db.query(`SELECT token_hash FROM alerts.accounts WHERE id = $1`, [account_id])).toEqual([
        { token_hash: hashToken(token) },
      ]);
      expect(lastText(GROUP)).not.toContain('alrt_');
    });
  });
});

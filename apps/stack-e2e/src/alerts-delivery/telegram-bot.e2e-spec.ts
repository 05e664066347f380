import { eventually, sql } from '../alerts/alerts-test-kit';
import { connectTrader, setVenuePrice, type Trader } from '../tools/tool-test-kit';
import { btcAt, type DeliveryWorld, openPosition, startDeliveryWorld } from './alerts-delivery-kit';

const CHAT = 912_001;
const LATER_CHAT = 912_002;

describe('Telegram bot by long polling: from opening the bot to a liquidation-risk alert, without an HTTP call', () => {
  let world: DeliveryWorld;
  let trader: Trader;

  const texts = () => world.telegram.delivered(CHAT).map((m) => m.text);
  /** The user types `text`; resolves with the bot's first reply to it. */
  const say = async (text: string): Promise<string> => {
    const before = texts().length;
    world.telegram.userSends(CHAT, text);
    return eventually(async () => texts()[before], 20000, `the reply to ${text}`);
  };

  beforeAll(async () => {
    world = await startDeliveryWorld();
    await btcAt(world, 100_000);
    trader = await connectTrader(world.stack, world.issuer, { fundUsd: 1000 });
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('registers the command menu with setMyCommands', async () => {
    const menu = await eventually(
      async () => (world.telegram.commands().length > 0 ? world.telegram.commands() : undefined),
      20000,
      'the command menu',
    );
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
  });

  it('sets up, watches a wallet, and delivers its opened and liquidation-risk alerts to the chat', async () => {
    expect(await say('/start')).toMatch(/^Alerts are set up: this chat receives the alerts of a new alerts account\./);
    expect(await say(`/watch ${trader.wallet} bot trader`)).toBe(
      `Watching <b>bot trader</b> <code>${trader.wallet.toLowerCase()}</code>.\nRules: liquidation risk below 5% · opened · closed · liquidated.\nChange them with /rules bot trader`,
    );
    expect(await say('/risk bot trader 0.5')).toBe(
      `Liquidation risk of <b>bot trader</b> <code>${trader.wallet.toLowerCase()}</code> now alerts below 0.5%.`,
    );
    await eventually(
      async () =>
        (
          await sql(
            world.stack.database.url,
            `SELECT 1 FROM alerts.rule_state s JOIN alerts.watches w ON w.id = s.watch_id WHERE w.address = $1 AND s.rule = 'positions'`,
            [trader.wallet.toLowerCase()],
          )
        ).length > 0,
      30000,
      'the watch to be seeded',
    );
    await openPosition(world.stack.baseUrl, trader, { market: 'BTC', side: 'long', marginUsd: 100, leverage: 100 });
    const opened = await eventually(
      async () => texts().find((t) => t.includes('Position opened')),
      30000,
      'the opened alert in the chat',
    );
    expect(opened).toContain('bot trader');
    expect(texts().some((t) => t.startsWith('<b>🔴 Liquidation risk'))).toBe(false);
    await setVenuePrice(world.stack, 'BTC', 99_400);
    const risk = await eventually(
      async () => texts().find((t) => t.startsWith('<b>🔴 Liquidation risk')),
      30000,
      'the liquidation-risk alert in the chat',
    );
    expect(risk).toContain('bot trader');
    expect(risk).toMatch(/ · liquidation price [\d,.]+ · /);
    expect(risk).toMatch(/\nAt \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d UTC$/);
    expect(risk).not.toContain('best effort');
    // The chat has the alert; the dispatcher records it delivered once Telegram's answer is back.
    const delivered =
      /^<b>Last alerts<\/b>\n\n.* · <b>liquidation risk<\/b> · <b>bot trader<\/b>.*\ntelegram \(Telegram Tester\): delivered/;
    const history = await eventually(
      async () => {
        const reply = await say('/history');
        return delivered.test(reply) ? reply : undefined;
      },
      20000,
      'the alert shown as delivered in /history',
    );
    expect(history).toMatch(/^<b>Last alerts<\/b>/);
  });

  it('keeps the account usable through the API with the token it shows privately', async () => {
    const reply = await say('/token');
    const token = /alrt_[0-9a-f]{32}_[A-Za-z0-9_-]{43}/.exec(reply)![0];
    const me = await world.call<{
      watches: { address: string; label: string; rules: { liquidation: { belowPct: number } } }[];
      channels: { kind: string; status: string }[];
    }>('GET', '/api/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.watches).toEqual([
      expect.objectContaining({
        address: trader.wallet.toLowerCase(),
        label: 'bot trader',
        rules: expect.objectContaining({ liquidation: { enabled: true, belowPct: 0.5 } }),
      }),
    ]);
    expect(me.body.channels).toEqual([expect.objectContaining({ kind: 'telegram', status: 'active' })]);
    expect(await say('/pause')).toMatch(/^Paused/);
    const paused = await world.call<{ channels: { status: string }[] }>('GET', '/api/me', { token });
    expect(paused.body.channels).toEqual([expect.objectContaining({ status: 'paused' })]);
  });

  it('a new chat watching the wallet while it is at risk is told at once, and sees the position with /positions', async () => {
    const later = () => world.telegram.delivered(LATER_CHAT).map((m) => m.text);
    const ask = async (text: string): Promise<string> => {
      const before = later().length;
      world.telegram.userSends(LATER_CHAT, text);
      return eventually(async () => later()[before], 20000, `the reply to ${text}`);
    };
    expect(await ask('/start')).toMatch(/^Alerts are set up/);
    expect(await ask(`/watch ${trader.wallet} at risk`)).toMatch(/^Watching <b>at risk<\/b>/);
    const risk = await eventually(
      async () => later().find((t) => t.startsWith('<b>🔴 Liquidation risk')),
      30000,
      'the liquidation-risk alert of a wallet watched while at risk',
    );
    expect(risk).toContain('(alert below 5%)');
    const positions = await ask('/positions');
    expect(positions).toMatch(
      /^<b>Open positions<\/b>\n\n<b>at risk<\/b> <code>0x[0-9a-f]{40}<\/code>\n🔴 BTC long 100x · margin 100 USDC · PnL -?[\d,.]+ USDC\n {4}[\d.]+% to liquidation · liquidation price [\d,.]+ \(mark 99,400\)$/,
    );
    expect(later().filter((t) => t.startsWith('<b>🔴 Liquidation risk'))).toHaveLength(1);
  });
});

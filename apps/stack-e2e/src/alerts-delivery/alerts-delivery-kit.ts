import {
  type DiscordFake,
  startDiscordFake,
  startTelegramFake,
  startTestStack,
  startWebhookReceiver,
  type TelegramFake,
  type TestStack,
  type WebhookReceiver,
} from '@paper/dev-stack';
import { type Call, client, eventually, newAccount } from '../alerts/alerts-test-kit';
import { callTool, setVenuePrice, type Trader, venueControl, waitForPrices } from '../tools/tool-test-kit';
import { type TestIssuer, startTestIssuer } from '../tools/token-issuer';
import { startToolApiGate, type ToolApiGate } from './tool-api-gate';

export const ALERTS_STACK_APPS = [
  'venue-sim',
  'trading-executor',
  'tools-gateway',
  'alerts-api',
  'alerts-poller',
  'alerts-dispatcher',
] as const;

export interface AlertView {
  id: string;
  eventId: string;
  kind: string;
  wallet: string | null;
  details: Record<string, unknown>;
  deliveries: {
    id: string;
    channelId: string;
    channelKind: string;
    status: string;
    attempts: number;
    lastError: string | null;
  }[];
}

export interface DeliveryWorld {
  stack: TestStack;
  issuer: TestIssuer;
  receiver: WebhookReceiver;
  flaky: WebhookReceiver;
  discord: DiscordFake;
  telegram: TelegramFake;
  /** Sits between the alerts services and the tool API (their EXCHANGE_API_URL). */
  gate: ToolApiGate;
  call: Call;
  stop(): Promise<void>;
}

/**
 * Everything an alert-delivery test needs: the stack with short timings, and local Discord, Telegram and webhook
 * receivers.
 */
export async function startDeliveryWorld(env: Record<string, string> = {}): Promise<DeliveryWorld> {
  const [issuer, receiver, flaky, discord, telegram, gate] = await Promise.all([
    startTestIssuer(),
    startWebhookReceiver(),
    startWebhookReceiver(),
    startDiscordFake(),
    startTelegramFake(),
    startToolApiGate(),
  ]);
  const stack = await startTestStack({
    apps: [...ALERTS_STACK_APPS],
    env: {
      OAUTH_JWKS_URL: issuer.jwksUrl,
      EXCHANGE_API_URL: gate.url,
      ALERTS_ALLOW_HOSTS: [receiver.hostPort, flaky.hostPort].join(','),
      DISCORD_API_BASE: discord.apiBase,
      TELEGRAM_API_BASE: telegram.apiBase,
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_BOT_USERNAME: telegram.username,
      TELEGRAM_UPDATES_MODE: 'polling',
      TELEGRAM_POLL_TIMEOUT_S: '2',
      ALERTS_POLL_MS: '1000',
      ALERTS_PROTOCOL_POLL_MS: '1000',
      ALERTS_POLL_LOCK_MS: '4000',
      ALERTS_RETRY_SCHEDULE_MS: '1100,1100,1100',
      ALERTS_RETRY_JITTER_PCT: '0',
      ALERTS_DELIVERY_LOCK_MS: '3000',
      ALERTS_SWEEP_MS: '1000',
      ...env,
    },
  });
  issuer.bind(stack.baseUrl);
  gate.setTarget(stack.baseUrl);
  await venueControl(stack, 'freeze', { frozen: true });
  await waitForPrices(stack.baseUrl);
  return {
    stack,
    issuer,
    receiver,
    flaky,
    discord,
    telegram,
    gate,
    call: client(stack.alertsUrl),
    stop: async () => {
      await stack?.stop();
      await Promise.all([
        issuer.stop(),
        receiver.close(),
        flaky.close(),
        discord.close(),
        telegram.close(),
        gate.close(),
      ]);
    },
  };
}

/** Sets BTC's price at the venue and waits until the tool API's markets show it. */
export async function btcAt(world: DeliveryWorld, price: number): Promise<void> {
  await setVenuePrice(world.stack, 'BTC', price);
  await eventually(
    async () => {
      const markets = await callTool(world.stack.baseUrl, 'get_markets', {}, { method: 'GET' });
      return markets.body.data?.['markets']?.find(
        (m: { market: string; markPrice: number }) => m.market === 'BTC' && m.markPrice === price,
      );
    },
    30000,
    `BTC at ${price}`,
  );
}

/** An alerts account with a webhook, a Discord and a linked Telegram channel. */
export async function accountWithChannels(
  world: DeliveryWorld,
  chatId: number,
): Promise<{ token: string; channels: Record<'webhook' | 'discord' | 'telegram', string>; discordHook: string }> {
  const { call, receiver, discord, telegram } = world;
  const { token } = await newAccount(call);
  const hook = await call<{ id: string; signingSecret: string }>('POST', '/api/channels', {
    token,
    body: { kind: 'webhook', target: `${receiver.url}/alerts`, label: 'receiver' },
  });
  if (hook.status !== 201) throw new Error(`webhook channel: ${hook.status} ${JSON.stringify(hook.body)}`);
  receiver.setSecret(hook.body.signingSecret);
  const dc = discord.createWebhook();
  const disc = await call<{ id: string }>('POST', '/api/channels', {
    token,
    body: { kind: 'discord', target: dc.url, label: 'discord' },
  });
  if (disc.status !== 201) throw new Error(`discord channel: ${disc.status} ${JSON.stringify(disc.body)}`);
  const link = await call<{ code: string }>('POST', '/api/telegram/link', { token });
  if (link.status !== 201) throw new Error(`telegram link: ${link.status} ${JSON.stringify(link.body)}`);
  telegram.userSends(chatId, `/start ${link.body.code}`);
  const tg = await eventually(
    async () => {
      const me = await call<{ channels: { id: string; kind: string }[] }>('GET', '/api/me', { token });
      return me.body.channels.find((c) => c.kind === 'telegram');
    },
    20000,
    'the telegram channel',
  );
  return { token, channels: { webhook: hook.body.id, discord: disc.body.id, telegram: tg.id }, discordHook: dc.id };
}

export async function alerts(call: Call, token: string): Promise<AlertView[]> {
  const res = await call<{ alerts: AlertView[] }>('GET', '/api/alerts?limit=100', { token });
  if (res.status !== 200) throw new Error(`GET /api/alerts answered ${res.status}`);
  return res.body.alerts;
}

/** Waits until an alert of `kind` exists and every one of its deliveries is `delivered`. */
export async function deliveredAlert(
  call: Call,
  token: string,
  kind: string,
  timeoutMs = 30000,
  predicate: (a: AlertView) => boolean = () => true,
): Promise<AlertView> {
  return eventually(
    async () =>
      (await alerts(call, token)).find(
        (a) =>
          a.kind === kind &&
          predicate(a) &&
          a.deliveries.length > 0 &&
          a.deliveries.every((d) => d.status === 'delivered'),
      ),
    timeoutMs,
    `a delivered ${kind} alert`,
  );
}

/** Opens a position through the tool API's authenticated family: preview_trade, then open_position with the quote. */
export async function openPosition(
  base: string,
  trader: Trader,
  args: { market: 'BTC' | 'ETH'; side: 'long' | 'short'; marginUsd: number; leverage: number },
): Promise<{ positionId: string; bustPrice: number }> {
  const preview = await callTool(base, 'preview_trade', args, { token: trader.token });
  if (preview.status !== 200) throw new Error(`preview_trade: ${preview.status} ${JSON.stringify(preview.body)}`);
  const open = await callTool(
    base,
    'open_position',
    { ...args, quoteId: preview.body.data!['quoteId'] },
    { token: trader.token },
  );
  if (open.status !== 200 || open.body.data?.['status'] !== 'filled')
    throw new Error(`open_position: ${open.status} ${JSON.stringify(open.body)}`);
  const position = open.body.data!['position'] as { positionId: string; bustPrice: number };
  return { positionId: position.positionId, bustPrice: position.bustPrice };
}

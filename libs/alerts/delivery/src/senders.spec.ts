import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendDiscord } from './discord-sender';
import { escapeTelegramHtml, formatTelegramHtml, sendTelegram } from './telegram-sender';
import { buildWebhookEvent, sendWebhook, verifyWebhookSignature } from '@paper/webhook-delivery';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: Received, res: ServerResponse) => void;

async function receiver(handler: Handler): Promise<{ server: Server; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(entry);
      handler(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, received };
}

const servers: Server[] = [];
async function start(handler: Handler) {
  const r = await receiver(handler);
  servers.push(r.server);
  return r;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

const event = buildWebhookEvent('evt_abc', 'test', { message: 'hello' }, new Date('2025-01-01T00:00:00Z'));

describe('sendWebhook', () => {
  it('delivers a signed body with the event id header', async () => {
    const { port, received } = await start((_req, res) => res.writeHead(204).end());
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${port}/in`, secrets: ['whsec_x'] }, event, {
      allowHosts: [`127.0.0.1:${port}`],
    });
    expect(outcome).toEqual({ kind: 'delivered', status: 204 });
    const [req] = received;
    expect(req!.headers['x-service-alerts-event-id']).toBe('evt_abc');
    expect(JSON.parse(req!.body)).toEqual({
      id: 'evt_abc',
      type: 'test',
      createdAt: '2025-01-01T00:00:00.000Z',
      data: { message: 'hello' },
    });
    expect(
      verifyWebhookSignature('whsec_x', req!.body, req!.headers['x-service-alerts-signature'] as string).valid,
    ).toBe(true);
  });

  it('never follows redirects', async () => {
    const other = await start((_req, res) => res.writeHead(200).end());
    const { port } = await start((_req, res) =>
      res.writeHead(302, { location: `http://127.0.0.1:${other.port}/` }).end(),
    );
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${port}/`, secrets: ['s'] }, event, {
      allowHosts: [`127.0.0.1:${port}`, `127.0.0.1:${other.port}`],
    });
    expect(outcome).toMatchObject({ kind: 'failed', status: 302 });
    expect(other.received).toHaveLength(0);
  });

  it.each([
    [410, 'disable'],
    [400, 'failed'],
    [404, 'failed'],
    [413, 'failed'],
    [422, 'failed'],
    [408, 'retry'],
    [500, 'retry'],
  ])('maps %s to %s', async (status, kind) => {
    const { port } = await start((_req, res) => res.writeHead(status).end('nope'));
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${port}/`, secrets: ['s'] }, event, {
      allowHosts: [`127.0.0.1:${port}`],
    });
    expect(outcome).toMatchObject({ kind, status });
  });

  it('never sends a body over 256 KiB (a permanent failure, nothing is retried)', async () => {
    const { port, received } = await start((_req, res) => res.writeHead(200).end());
    const big = buildWebhookEvent('evt_big', 'test', { text: 'x'.repeat(256 * 1024) });
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${port}/`, secrets: ['s'] }, big, {
      allowHosts: [`127.0.0.1:${port}`],
    });
    expect(outcome).toEqual({ kind: 'failed', reason: 'body larger than 262144 bytes' });
    expect(received).toHaveLength(0);
  });

  it('honours Retry-After on 429 and 503', async () => {
    const { port } = await start((_req, res) => res.writeHead(429, { 'retry-after': '7' }).end());
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${port}/`, secrets: ['s'] }, event, {
      allowHosts: [`127.0.0.1:${port}`],
    });
    expect(outcome).toMatchObject({ kind: 'retry', status: 429, retryAfterMs: 7000 });
  });

  it('retries on timeouts and refused connections', async () => {
    const { port } = await start(() => undefined);
    const slow = await sendWebhook({ url: `http://127.0.0.1:${port}/`, secrets: ['s'] }, event, {
      allowHosts: [`127.0.0.1:${port}`],
      timeoutMs: 200,
    });
    expect(slow).toMatchObject({ kind: 'retry' });
    const closed = await sendWebhook({ url: 'http://127.0.0.1:1/', secrets: ['s'] }, event, {
      allowHosts: ['127.0.0.1:1'],
    });
    expect(closed).toMatchObject({ kind: 'retry', reason: expect.stringContaining('ECONNREFUSED') });
  });

  it('refuses, at send time, a name that now resolves to a private address (DNS rebinding)', async () => {
    const { port, received } = await start((_req, res) => res.writeHead(200).end());
    const outcome = await sendWebhook({ url: `http://rebind.example.com:${port}/`, secrets: ['s'] }, event, {
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('loopback') });
    expect(received).toHaveLength(0);
  });

  it('connects to the checked address while keeping the host name in the Host header', async () => {
    const { port, received } = await start((_req, res) => res.writeHead(200).end());
    const outcome = await sendWebhook({ url: `http://pinned.example.com:${port}/x`, secrets: ['s'] }, event, {
      allowHosts: ['pinned.example.com'],
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(outcome.kind).toBe('delivered');
    expect(received[0]!.headers.host).toBe(`pinned.example.com:${port}`);
  });
});

describe('sendDiscord', () => {
  const webhook = 'https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ';

  it('posts with wait=true, no mentions, within the limits', async () => {
    const { port, received } = await start((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"1"}'),
    );
    const outcome = await sendDiscord(
      webhook,
      {
        content: 'x'.repeat(2500),
        embeds: Array.from({ length: 12 }, (_, i) => ({ title: `e${i}`, description: 'd'.repeat(1000) })),
      },
      { apiBase: `http://127.0.0.1:${port}/api` },
    );
    expect(outcome).toEqual({ kind: 'delivered', status: 200 });
    const req = received[0]!;
    expect(req.url).toBe('/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ?wait=true');
    const body = JSON.parse(req.body) as {
      content: string;
      embeds: { title: string; description: string }[];
      allowed_mentions: unknown;
    };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(body.embeds.length).toBeLessThanOrEqual(10);
    expect(body.embeds.reduce((n, e) => n + e.title.length + e.description.length, 0)).toBeLessThanOrEqual(6000);
  });

  it('waits retry_after on 429 and disables on 404 and 401', async () => {
    const limited = await start((_req, res) =>
      res.writeHead(429, { 'content-type': 'application/json' }).end('{"retry_after":1.5}'),
    );
    expect(
      await sendDiscord(webhook, { content: 'hi' }, { apiBase: `http://127.0.0.1:${limited.port}/api` }),
    ).toMatchObject({ kind: 'retry', retryAfterMs: 1500 });
    const gone = await start((_req, res) => res.writeHead(404).end('{"message":"Unknown Webhook"}'));
    expect(
      await sendDiscord(webhook, { content: 'hi' }, { apiBase: `http://127.0.0.1:${gone.port}/api` }),
    ).toMatchObject({ kind: 'disable', status: 404 });
    const unauthorized = await start((_req, res) => res.writeHead(401).end());
    expect(
      await sendDiscord(webhook, { content: 'hi' }, { apiBase: `http://127.0.0.1:${unauthorized.port}/api` }),
    ).toMatchObject({ kind: 'disable', status: 401 });
  });
});

describe('sendTelegram', () => {
  it('escapes user text and sends HTML to the chat', async () => {
    const { port, received } = await start((_req, res) => res.writeHead(200).end('{"ok":true,"result":{}}'));
    const html = formatTelegramHtml('Alert <b>', ['a & b < c']);
    expect(html).toBe('<b>Alert &lt;b&gt;</b>\na &amp; b &lt; c');
    expect(escapeTelegramHtml('<x>&')).toBe('&lt;x&gt;&amp;');
    const outcome = await sendTelegram('42', html, { apiBase: `http://127.0.0.1:${port}`, botToken: '1:tok' });
    expect(outcome.kind).toBe('delivered');
    expect(received[0]!.url).toBe('/bot1:tok/sendMessage');
    expect(JSON.parse(received[0]!.body)).toMatchObject({ chat_id: '42', text: html, parse_mode: 'HTML' });
  });

  it('disables on 403 and waits retry_after on 429', async () => {
    const blocked = await start((_req, res) =>
      res.writeHead(403).end('{"ok":false,"description":"Forbidden: bot was blocked by the user"}'),
    );
    expect(await sendTelegram('42', 'x', { apiBase: `http://127.0.0.1:${blocked.port}`, botToken: 't' })).toMatchObject(
      { kind: 'disable', status: 403 },
    );
    const limited = await start((_req, res) => res.writeHead(429).end('{"ok":false,"parameters":{"retry_after":3}}'));
    expect(await sendTelegram('42', 'x', { apiBase: `http://127.0.0.1:${limited.port}`, botToken: 't' })).toMatchObject(
      { kind: 'retry', retryAfterMs: 3000 },
    );
  });
});

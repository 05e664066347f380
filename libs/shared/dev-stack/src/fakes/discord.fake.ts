import { randomBytes } from 'node:crypto';
import { type FakeServer, json, startFakeServer } from './http-fake';

interface Embed {
  title?: string;
  description?: string;
  footer?: { text?: string };
  author?: { name?: string };
  fields?: { name?: string; value?: string }[];
}

export interface DiscordMessageRecord {
  webhookId: string;
  wait: boolean;
  status: number;
  body: { content?: string; embeds?: Embed[]; allowed_mentions?: { parse?: string[] } } & Record<string, unknown>;
  at: number;
}

export interface DiscordFake extends FakeServer {
  /** Value for DISCORD_API_BASE. */
  apiBase: string;
  messages: DiscordMessageRecord[];
  /** Registers a webhook; `url` is the discord.com form a channel's target takes. */
  createWebhook(): { id: string; token: string; url: string };
  /** Deletes a webhook: further posts get 404 Unknown Webhook. */
  deleteWebhook(id: string): void;
  failNext(times: number, status?: number): void;
  /** Accepted messages of one webhook. */
  delivered(webhookId: string): DiscordMessageRecord[];
}

const LIMIT = { content: 2000, embeds: 10, total: 6000, title: 256, description: 4096 };

function embedLength(e: Embed): number {
  return (
    (e.title?.length ?? 0) +
    (e.description?.length ?? 0) +
    (e.footer?.text?.length ?? 0) +
    (e.author?.name?.length ?? 0) +
    (e.fields ?? []).reduce((n, f) => n + (f.name?.length ?? 0) + (f.value?.length ?? 0), 0)
  );
}

function formErrors(body: DiscordMessageRecord['body']): string[] {
  const errors: string[] = [];
  if ((body.content?.length ?? 0) > LIMIT.content) errors.push('content: Must be 2000 or fewer in length.');
  const embeds = body.embeds ?? [];
  if (embeds.length > LIMIT.embeds) errors.push('embeds: Must be 10 or fewer in length.');
  if (embeds.reduce((n, e) => n + embedLength(e), 0) > LIMIT.total)
    errors.push('embeds: Embed size exceeds maximum size of 6000');
  embeds.forEach((e, i) => {
    if ((e.title?.length ?? 0) > LIMIT.title) errors.push(`embeds.${i}.title: Must be 256 or fewer in length.`);
    if ((e.description?.length ?? 0) > LIMIT.description)
      errors.push(`embeds.${i}.description: Must be 4096 or fewer in length.`);
  });
  return errors;
}

/**
 * A Discord webhook endpoint as Discord's API behaves: `POST /api[/v10]/webhooks/{id}/{token}[?wait=true]`,
 * 200 with the message object when waiting (204 otherwise), 404 Unknown Webhook, 400 Invalid Form Body
 * past the message limits, and 429 with `retry_after` beyond 5 requests per 2 seconds per webhook.
 */
export async function startDiscordFake(
  options: { ratePerWindow?: number; windowMs?: number } = {},
): Promise<DiscordFake> {
  const hooks = new Map<string, string>();
  const hits = new Map<string, number[]>();
  const messages: DiscordMessageRecord[] = [];
  const rate = options.ratePerWindow ?? 5;
  const windowMs = options.windowMs ?? 2000;
  let failures = { times: 0, status: 500 };
  let nextId = 1_100_000_000_000_000_000n;
  const server = await startFakeServer((req, res) => {
    const match = /^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([A-Za-z0-9_-]+)\/?$/.exec(req.path);
    if (req.method !== 'POST' || !match) return json(res, 404, { message: '404: Not Found', code: 0 });
    const [, id, token] = match as unknown as [string, string, string];
    if (hooks.get(id) !== token) return json(res, 404, { message: 'Unknown Webhook', code: 10015 });
    const now = Date.now();
    const recent = (hits.get(id) ?? []).filter((t) => now - t < windowMs);
    let body: DiscordMessageRecord['body'];
    try {
      body = JSON.parse(req.rawBody) as DiscordMessageRecord['body'];
    } catch {
      return json(res, 400, { message: 'The request body contains invalid JSON.', code: 50109 });
    }
    const wait = req.query.get('wait') === 'true';
    const record = (status: number) => messages.push({ webhookId: id, wait, status, body, at: now });
    if (recent.length >= rate) {
      const retryAfter = (windowMs - (now - recent[0]!)) / 1000;
      record(429);
      return json(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
        { 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-remaining': '0' },
      );
    }
    recent.push(now);
    hits.set(id, recent);
    if (failures.times > 0) {
      failures.times -= 1;
      record(failures.status);
      return json(res, failures.status, { message: 'Internal Server Error', code: 0 });
    }
    if (!body.content && !(body.embeds ?? []).length) {
      record(400);
      return json(res, 400, { message: 'Cannot send an empty message', code: 50006 });
    }
    const errors = formErrors(body);
    if (errors.length > 0) {
      record(400);
      return json(res, 400, { message: 'Invalid Form Body', code: 50035, errors });
    }
    record(wait ? 200 : 204);
    if (!wait) return void res.writeHead(204).end();
    nextId += 1n;
    return json(res, 200, {
      id: String(nextId),
      type: 0,
      channel_id: '900000000000000001',
      webhook_id: id,
      content: body.content ?? '',
      embeds: body.embeds ?? [],
      timestamp: new Date(now).toISOString(),
      author: { id, username: 'Alerts', bot: true },
    });
  });
  return {
    ...server,
    apiBase: `${server.url}/api`,
    messages,
    createWebhook: () => {
      const id = String(1_000_000_000_000_000_000n + BigInt(hooks.size + 1));
      const token = randomBytes(40).toString('base64url').slice(0, 68);
      hooks.set(id, token);
      return { id, token, url: `https://discord.com/api/webhooks/${id}/${token}` };
    },
    deleteWebhook: (id) => void hooks.delete(id),
    failNext: (times, status = 500) => {
      failures = { times, status };
    },
    delivered: (webhookId) => messages.filter((m) => m.webhookId === webhookId && m.status >= 200 && m.status < 300),
  };
}

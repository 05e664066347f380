import { sourceAddresses } from '@paper/dev-stack';
import http, { type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';

/** One HTTP call to the alerts API: status, headers and parsed JSON body (null when empty). */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export type Call = <T = Record<string, unknown>>(
  method: string,
  path: string,
  options?: {
    token?: string;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    /** The loopback source address (127.0.0.0/8) to send from; the default is the system's choice. */
    from?: string;
  },
) => Promise<Answer<T>>;

/** The per-caller limits' 429 (not a channel's test-message limit): seconds to wait, or undefined. */
function callerLimitWait(status: number, headers: Headers, body: unknown): number | undefined {
  if (status !== 429) return undefined;
  const error = body as { message?: unknown; error?: { message?: unknown } } | null;
  const message = error?.message ?? error?.error?.message;
  const seconds = Number(headers.get('retry-after'));
  return typeof message === 'string' && message.startsWith('Too many requests') && seconds <= 5 ? seconds : undefined;
}

/**
 * Calls to the alerts API. Like a well-behaved client, it waits out a per-caller limit's short
 * `Retry-After` (up to 5 s, 10 times) and tries again, so tests that drive one account quickly run with
 * the limits at their defaults; `{ honourRetryAfter: false }` returns every 429 (tests of the limits).
 */
export function client(baseUrl: string, { honourRetryAfter = true } = {}): Call {
  const once = baseCall(baseUrl);
  return async (method, path, options) => {
    for (let attempt = 0; ; attempt += 1) {
      const answer = await once(method, path, options);
      const wait =
        honourRetryAfter && attempt < 10 ? callerLimitWait(answer.status, answer.headers, answer.body) : undefined;
      if (wait === undefined) return answer as never;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  };
}

function baseCall(baseUrl: string): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    } else if (options.raw !== undefined) {
      headers['content-type'] ??= 'application/json';
    }
    const res =
      options.from === undefined
        ? await fetch(`${baseUrl}${path}`, { method, headers, body })
        : await callers.from(options.from)(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as never };
  };
}

/**
 * Callers of the alerts tests on their own loopback source addresses (127.1.160.1 onwards, apart from the
 * other suites' callers): `from` in a call picks one, and each account is created from a fresh one.
 */
const callers = sourceAddresses(10_000, 40_000);

/** A loopback source address not handed out before in this process. */
export function nextSourceAddress(): string {
  return callers.next();
}

/** Creates an account, from a fresh source address each time (account creation is limited per address). */
export async function newAccount(call: Call): Promise<{ id: string; token: string }> {
  const res = await call<{ account: { id: string }; token: string }>('POST', '/api/accounts', {
    from: nextSourceAddress(),
  });
  if (res.status !== 201) throw new Error(`account creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.account.id, token: res.body.token };
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  hostPort: string;
  received: Received[];
  /** What the next requests get; default 200 `{}`. */
  respond: (handler: (req: Received, res: ServerResponse) => void) => void;
  close(): Promise<void>;
}

/** A local HTTP server that records what it receives (webhook, Discord or Telegram stand-in). */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let handler = (_req: Received, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  };
  const server: Server = http.createServer((req, res) => {
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
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hostPort: `127.0.0.1:${port}`,
    received,
    respond: (next) => {
      handler = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Runs SQL against the stack's database (fixtures for rows other services write, and checks). */
export async function sql<R = Record<string, unknown>>(
  databaseUrl: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query(text, params)).rows as R[];
  } finally {
    await db.end();
  }
}

/** Polls until the check passes or the timeout ends (no fixed sleeps). */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 15000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';
export const DISCORD_URL =
  'https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrStUvWxYz01';

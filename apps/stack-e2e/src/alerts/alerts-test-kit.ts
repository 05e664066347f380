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
  options?: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
) => Promise<Answer<T>>;

export function client(baseUrl: string): Call {
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
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as never };
  };
}

export async function newAccount(call: Call): Promise<{ id: string; token: string }> {
  const res = await call<{ account: { id: string }; token: string }>('POST', '/api/accounts');
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

import { sourceAddresses, type TestStack, testRedisUrl } from '@paper/dev-stack';
import { SESSION_KEYS_QUEUE } from '@paper/contracts';
import { approvalFromGuardrails, signApproval, type GuardrailsInput } from '@paper/exchange-signing';
import { SessionKeyVault } from '@paper/session-key-vault';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { TestIssuer } from './token-issuer';

export const REDIS_URL = testRedisUrl();
/** The development default both oauth-server and tools-gateway use. */
export const DEV_ENCRYPTION_KEY = 'dev-only-session-key-encryption-key-change-me-in-production';

export interface CallResult {
  status: number;
  body: {
    ok: boolean;
    summary?: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tool data is checked field by field in the tests
    data?: Record<string, any>;
    error?: { code: string; message: string };
    /** A write answered again for its client key. */
    replayed?: true;
  };
  headers: Headers;
}

/**
 * The suites' callers: each request comes from the next of 64 loopback addresses, so the per-address
 * limits stay at their defaults while a suite makes many calls.
 */
export const callers = sourceAddresses(64, 1000);

export interface CallOptions {
  token?: string;
  /** The client to send with (default: `callers.fetch`, a new source address per request). */
  fetch?: typeof fetch;
  method?: 'GET' | 'POST';
  family?: 'public' | 'me';
  /** Raw body text (POST), sent as is. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /**
   * Like a well-behaved client: a 429 `rate_limited` (refused before anything was accepted) is waited out
   * for its Retry-After and sent again, up to 10 times (bursts of one wallet past its per-caller limit).
   */
  honourRetryAfter?: boolean;
}

/** Calls a tool over HTTP: POST with a JSON body, or GET with a query string. */
export async function callTool(
  baseUrl: string,
  name: string,
  args: Record<string, unknown> | undefined,
  o: CallOptions = {},
): Promise<CallResult> {
  const family = o.family ?? (o.token ? 'me' : 'public');
  const method = o.method ?? 'POST';
  let url = `${baseUrl}/api/v1/${family === 'me' ? 'me/' : ''}tools/${name}`;
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers['authorization'] = `Bearer ${o.token}`;
  let body: string | undefined;
  if (method === 'GET' && args) {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(args)) {
      if (Array.isArray(v)) for (const item of v) query.append(k, String(item));
      else if (v !== undefined) query.append(k, String(v));
    }
    url += `?${query.toString()}`;
  } else if (method === 'POST') {
    body = o.rawBody ?? (args === undefined ? undefined : JSON.stringify(args));
    if (body !== undefined) headers['content-type'] = o.contentType ?? 'application/json';
  }
  let res = await (o.fetch ?? callers.fetch)(url, { method, headers, body });
  for (let retry = 0; o.honourRetryAfter && res.status === 429 && retry < 10; retry += 1) {
    await res.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000));
    res = await (o.fetch ?? callers.fetch)(url, { method, headers, body });
  }
  const text = await res.text();
  let parsed: CallResult['body'];
  try {
    parsed = JSON.parse(text) as CallResult['body'];
  } catch {
    throw new Error(`${method} ${url} answered ${res.status} with non-JSON: ${text.slice(0, 300)}`);
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}

export async function sql<T = Record<string, unknown>>(
  stack: TestStack,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: stack.database.url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export const NO_LIMITS: GuardrailsInput = {
  maxMarginPerTradeUsd: null,
  maxLeverage: null,
  maxDailyNotionalUsd: null,
  maxOpenPositions: null,
  allowedMarkets: null,
  requireConfirmation: true,
};

export interface Trader {
  /** The owner's private key (signs in on /connections). */
  ownerPrivateKey: `0x${string}`;
  /** The connection (grant) its session key belongs to. */
  grantId: string;
  wallet: string;
  sessionKey: string;
  token: string;
  guardrails: GuardrailsInput;
}

export interface ConnectOptions {
  guardrails?: Partial<GuardrailsInput>;
  /** USDC credited to the exchange balance (0 = none). */
  fundUsd?: number;
  scope?: string;
  /** Store the encrypted session key for the gateway (default true). */
  storeSecret?: boolean;
  /** The owner (default: a new wallet). */
  ownerPrivateKey?: `0x${string}`;
}

/**
 * A wallet connected the way oauth-server connects one: the owner signs an approval of a fresh session
 * key with guardrails, the executor registers it (session-keys queue), the encrypted private key is
 * stored in the oauth schema, the account is funded through the paper faucet, and a token is minted.
 */
export async function connectTrader(
  stack: TestStack,
  issuer: TestIssuer,
  options: ConnectOptions = {},
): Promise<Trader> {
  const ownerPrivateKey = options.ownerPrivateKey ?? generatePrivateKey();
  const owner = privateKeyToAccount(ownerPrivateKey);
  const sessionPrivateKey = generatePrivateKey();
  const session = privateKeyToAccount(sessionPrivateKey);
  const wallet = owner.address.toLowerCase();
  const sessionKey = session.address.toLowerCase();
  const guardrails = { ...NO_LIMITS, ...options.guardrails };
  const grantId = `grant-${sessionKey}`;
  const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
  const approval = approvalFromGuardrails(wallet, sessionKey, guardrails, BigInt(expiresAt));
  const signature = await signApproval(approval, ownerPrivateKey);
  const queue = new Queue(SESSION_KEYS_QUEUE.queue, {
    connection: redisOptions(stack.redisUrl),
    prefix: `${stack.redisPrefix}:bull`,
  });
  try {
    await queue.add(
      'register-session-key',
      { wallet, sessionKey, guardrails, expiresAt: String(expiresAt), approvalSignature: signature, label: 'e2e' },
      { jobId: `sk-${sessionKey}` },
    );
  } finally {
    await queue.close();
  }
  await waitFor('session key registration', async () => {
    const rows = await sql(stack, `SELECT 1 FROM exchange.session_keys WHERE address = $1`, [sessionKey]);
    return rows.length > 0 ? true : undefined;
  });
  if (options.storeSecret !== false) {
    await sql(
      stack,
      `INSERT INTO oauth.session_key_secrets (address, wallet, encrypted_private_key, client_id, grant_id, guardrails, label, expires_at)
       VALUES ($1, $2, $3, 'test-client', $4, $5, 'e2e', to_timestamp($6))`,
      [
        sessionKey,
        wallet,
        new SessionKeyVault(DEV_ENCRYPTION_KEY).encrypt(sessionPrivateKey),
        grantId,
        JSON.stringify(guardrails),
        expiresAt,
      ],
    );
  }
  if ((options.fundUsd ?? 10_000) > 0) await fund(stack, wallet, options.fundUsd ?? 10_000);
  const token = await issuer.mint({ wallet, sessionKey, scope: options.scope });
  return { ownerPrivateKey, grantId, wallet, sessionKey, token, guardrails };
}

export async function fund(stack: TestStack, wallet: string, usd: number): Promise<void> {
  const executor = stack.appUrls['trading-executor']!;
  for (const [path, body] of [
    ['/dev/faucet', { wallet, usdc: String(usd + 1), eth: '0.01' }],
    ['/dev/deposit', { wallet, usdc: String(usd + 1), sweep: true }],
  ] as const) {
    const res = await fetch(`${executor}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  }
}

export function redisOptions(redisUrl = REDIS_URL): { host: string; port: number } {
  const url = new URL(redisUrl);
  return { host: url.hostname, port: Number(url.port || 6379) };
}

export const TRADING_APPS = ['venue-sim', 'trading-executor', 'tools-gateway'] as const;

/** Waits until the executor's price ingest has written live prices the gateway can read. */
export async function waitForPrices(baseUrl: string): Promise<void> {
  await waitFor(
    'live prices',
    async () => {
      const res = await callTool(
        baseUrl,
        'calculate_position',
        { market: 'ETH', side: 'short', marginUsd: 10, leverage: 1000 },
        { method: 'GET' },
      );
      const btc = await callTool(
        baseUrl,
        'calculate_position',
        { market: 'BTC', side: 'short', marginUsd: 10, leverage: 1000 },
        { method: 'GET' },
      );
      return res.status === 200 && btc.status === 200 ? true : undefined;
    },
    60000,
  );
}

/** Sets a venue price (the executor ingests it within its poll interval). */
export async function setVenuePrice(stack: TestStack, coin: 'BTC' | 'ETH', price: number): Promise<void> {
  const res = await fetch(`${stack.appUrls['venue-sim']}/control/price`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ coin, price }),
  });
  if (res.status !== 200) throw new Error(`control/price answered ${res.status}`);
}

export async function venueControl(stack: TestStack, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${stack.appUrls['venue-sim']}/control/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`control/${path} answered ${res.status}: ${await res.text()}`);
}

/** The live mid/bid/ask the executor last stored (scaled integers). */
export async function livePrice(
  stack: TestStack,
  market: 'BTC' | 'ETH',
): Promise<{ bid: bigint; ask: bigint; mid: bigint; ts: number }> {
  const redis = new Redis(REDIS_URL);
  try {
    const hash = await redis.hgetall(`${stack.redisPrefix}:prices:${market}`);
    return { bid: BigInt(hash['bid']!), ask: BigInt(hash['ask']!), mid: BigInt(hash['mid']!), ts: Number(hash['ts']) };
  } finally {
    redis.disconnect();
  }
}

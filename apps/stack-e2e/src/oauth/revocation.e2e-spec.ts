import { type TestStack, startTestStack } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import { generatePrivateKey } from 'viem/accounts';
import { connectMcp, callTool as mcpCall, rawMcpPost, toolsCall } from '../mcp/mcp-test-client';
import { openStream, type Received, until } from '../tools/event-stream-client';
import {
  callers,
  callTool,
  connectTrader,
  REDIS_URL,
  sql,
  TRADING_APPS,
  type Trader,
  waitFor,
  waitForPrices,
} from '../tools/tool-test-kit';
import { startTestIssuer, type TestIssuer } from '../tools/token-issuer';
import { revokeOnConnectionsPage, signInOwner } from './connections-owner';

/** How long the owner's revocation waits for the exchange in this stack (the default is 5 s). */
const REVOCATION_WAIT_MS = 3000;
const OPEN = { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1000 } as const;
/** A connection read as live is trusted this long (GRANT_LIVE_CACHE_MS), plus the time of one request. */
const PROPAGATION_BOUND_MS = 1000 + 250;

/** Repeats a call until it answers `status`, at most until `deadline` (epoch ms); the last answer otherwise. */
async function answersBy<T extends { status: number }>(call: () => Promise<T>, status: number, deadline: number) {
  for (;;) {
    const answer = await call();
    if (answer.status === status || Date.now() >= deadline) return { answer, at: Date.now() };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('revocation reaches the exchange and every call; streams end at expiry and revocation', () => {
  let stack: TestStack;
  let issuer: TestIssuer;
  let base: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    stack = await startTestStack({
      apps: [...TRADING_APPS, 'oauth-server', 'mcp-server'],
      env: {
        OAUTH_JWKS_URL: issuer.jwksUrl,
        SESSION_KEY_REVOCATION_WAIT_MS: String(REVOCATION_WAIT_MS),
      },
    });
    base = stack.baseUrl;
    issuer.bind(base);
    await waitForPrices(base);
  });

  afterAll(async () => {
    await stack?.stop();
    await issuer?.stop();
  });

  /** The trader's connection as oauth-server stores it (the grant its session key belongs to). */
  const storeGrant = (t: Trader) =>
    sql(
      stack,
      `INSERT INTO oauth.oidc_models (kind, id, payload, grant_id, expires_at)
       VALUES ('Grant', $1, $2, $1, now() + interval '1 day')`,
      [
        t.grantId,
        JSON.stringify({
          kind: 'Grant',
          jti: t.grantId,
          accountId: t.wallet,
          clientId: 'test-client',
          iat: Math.floor(Date.now() / 1000),
          resources: { [`${base}/api/v1`]: 'trade:read trade:write' },
        }),
      ],
    );

  /** Appends one private event of the wallet to the log, as the executor does (one lock, one notify). */
  const credit = (wallet: string) =>
    sql(
      stack,
      `WITH lock AS (SELECT pg_advisory_xact_lock(1163284052, 1)), ins AS (
         INSERT INTO exchange.events (type, wallet, data)
         SELECT 'deposit.credited', $1, jsonb_build_object('amountUsd', 1, 'feeUsd', 0, 'txHash', NULL) FROM lock
         RETURNING id)
       SELECT pg_notify('exchange_events', max(id)::text) FROM ins`,
      [wallet],
    );

  /**
   * Nothing reaches an ended stream: an event of its wallet written afterwards arrives on a live stream of
   * the same wallet (whose token names no connection), and not on the ended one.
   */
  async function expectNothingAfterClose(t: Trader, ended: Received[]): Promise<void> {
    const closedAt = ended.findIndex((e) => e.type === 'close');
    expect(closedAt).toBeGreaterThanOrEqual(0);
    const witness = openStream(`${base}/api/v1/me/events?types=deposit.credited`, t.token);
    try {
      await until('the witness stream open', () => witness.source.readyState === 1);
      await credit(t.wallet);
      await until('the event on the live stream', () => witness.received.length > 0);
      expect(ended.slice(closedAt + 1)).toEqual([]);
    } finally {
      witness.source.close();
    }
  }

  const exchangeKey = async (address: string) =>
    (
      await sql<{ revoked_at: Date | null }>(stack, 'SELECT revoked_at FROM exchange.session_keys WHERE address = $1', [
        address,
      ])
    )[0];

  it('revoking a connection is answered once the exchange has its key revoked; REST, MCP and the stream learn of it', async () => {
    const t = await connectTrader(stack, issuer, { fundUsd: 0 });
    await storeGrant(t);
    const token = await issuer.mint({ wallet: t.wallet, sessionKey: t.sessionKey, grantId: t.grantId });
    const mcpToken = await issuer.mint({
      wallet: t.wallet,
      sessionKey: t.sessionKey,
      grantId: t.grantId,
      audience: `${base}/mcp`,
    });
    expect((await callTool(base, 'get_account', {}, { token })).status).toBe(200);
    const mcp = await connectMcp(base, { token: mcpToken });
    try {
      expect((await mcpCall(mcp.client, 'get_account')).isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
    const stream = openStream(`${base}/api/v1/me/events`, token);
    try {
      await until('the stream open', () => stream.source.readyState === 1);
      const owner = await signInOwner(base, t.ownerPrivateKey);

      const answer = await revokeOnConnectionsPage(base, owner, `grants/${t.grantId}`);
      expect({ status: answer.status, location: answer.location }).toEqual({
        status: 303,
        location: '/connections?done=connection',
      });
      // "Revoked" means the exchange has it: nothing is left to complete.
      expect((await exchangeKey(t.sessionKey))?.revoked_at).toBeInstanceOf(Date);
      const [pending] = await sql<{ confirmed_at: Date | null }>(
        stack,
        'SELECT confirmed_at FROM oauth.pending_revocations WHERE session_key = $1',
        [t.sessionKey],
      );
      expect(pending?.confirmed_at).toBeInstanceOf(Date);

      await until('event: close on the stream', () => stream.received.some((e) => e.type === 'close'), 1000);
      expect(stream.received.find((e) => e.type === 'close')?.data).toMatchObject({ reason: 'connection_revoked' });

      // Every call with the connection's tokens is refused within the bound, REST and MCP alike.
      const deadline = answer.answeredAt + PROPAGATION_BOUND_MS;
      const rest = await answersBy(() => callTool(base, 'get_account', {}, { token }), 401, deadline);
      expect(rest.at).toBeLessThanOrEqual(deadline);
      expect({ status: rest.answer.status, code: rest.answer.body.error?.code }).toEqual({
        status: 401,
        code: 'invalid_token',
      });
      expect(rest.answer.body.error?.message).toContain('the connection was revoked');
      expect(rest.answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const viaMcp = await answersBy(
        () => rawMcpPost(base, toolsCall(1, 'get_account'), { authorization: `Bearer ${mcpToken}` }),
        401,
        deadline,
      );
      expect(viaMcp.at).toBeLessThanOrEqual(deadline);
      expect(viaMcp.answer.status).toBe(401);
      expect(viaMcp.answer.headers.get('www-authenticate')).toContain('error="invalid_token"');

      await expectNothingAfterClose(t, stream.received);
    } finally {
      stream.source.close();
    }
  });

  it('a stream ends with event: close (token_expired) within 1 s of its token expiring, and receives nothing after', async () => {
    const t = await connectTrader(stack, issuer, { fundUsd: 0 });
    await storeGrant(t);
    const expiresAt = Math.floor(Date.now() / 1000) + 3;
    const token = await issuer.mint({
      wallet: t.wallet,
      sessionKey: t.sessionKey,
      grantId: t.grantId,
      expiresInSeconds: expiresAt - Math.floor(Date.now() / 1000),
    });
    const stream = openStream(`${base}/api/v1/me/events`, token);
    try {
      await until('the stream open', () => stream.source.readyState === 1);
      await until('event: close', () => stream.received.some((e) => e.type === 'close'), 6000);
      const closedAt = Date.now();
      expect(closedAt).toBeGreaterThanOrEqual(expiresAt * 1000 - 50);
      expect(closedAt).toBeLessThanOrEqual(expiresAt * 1000 + 1000);
      expect(stream.received.find((e) => e.type === 'close')?.data).toMatchObject({ reason: 'token_expired' });
      await expectNothingAfterClose(t, stream.received);
    } finally {
      stream.source.close();
    }
  });

  it('holds at most 20 streams per wallet and per client address; the next one gets 429 with Retry-After', async () => {
    // Straight to the gateway: the count is the gateway's own.
    const gateway = stack.appUrls['tools-gateway']!;
    const t = await connectTrader(stack, issuer, { fundUsd: 0 });
    const streams = Array.from({ length: 20 }, () => openStream(`${gateway}/api/v1/me/events`, t.token));
    // The public streams of one client address.
    const address = callers.next();
    const publics = Array.from({ length: 20 }, () =>
      openStream(`${gateway}/api/v1/events?types=market.status`, undefined, address),
    );
    try {
      await until('40 streams open', () => [...streams, ...publics].every((s) => s.source.readyState === 1));
      const mine = await fetch(`${gateway}/api/v1/me/events`, { headers: { authorization: `Bearer ${t.token}` } });
      expect(mine.status).toBe(429);
      expect(mine.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await mine.json()).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
      const anyone = await callers.from(address)(`${gateway}/api/v1/events`);
      expect(anyone.status).toBe(429);
      expect(await anyone.json()).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
      // Another wallet is not held back by this one.
      const other = await connectTrader(stack, issuer, { fundUsd: 0 });
      const theirs = openStream(`${gateway}/api/v1/me/events`, other.token);
      await until('another wallet’s stream open', () => theirs.source.readyState === 1);
      theirs.source.close();
      // A stream that ends frees its place.
      streams.pop()!.source.close();
      await waitFor('a place for one more stream', async () => {
        const again = await fetch(`${gateway}/api/v1/me/events`, {
          headers: { authorization: `Bearer ${t.token}` },
        });
        const status = again.status;
        await again.body?.cancel();
        return status === 200 ? true : undefined;
      });
    } finally {
      for (const s of [...streams, ...publics]) s.source.close();
    }
  });

  it('a revocation survives Redis losing everything between the owner’s click and the exchange', async () => {
    const t = await connectTrader(stack, issuer, { fundUsd: 0 });
    const owner = await signInOwner(base, t.ownerPrivateKey);
    await stack.stopApp('trading-executor');
    try {
      const started = Date.now();
      const answer = await revokeOnConnectionsPage(base, owner, `keys/${t.sessionKey}`);
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(answer.answeredAt - started).toBeGreaterThanOrEqual(REVOCATION_WAIT_MS - 100);
      expect((await exchangeKey(t.sessionKey))?.revoked_at).toBeNull();
      // Trading stops at once: the tool API signs with no revoked key.
      const refused = await callTool(base, 'open_position', OPEN, { token: t.token });
      expect(refused.status).toBeGreaterThanOrEqual(400);

      const redis = new Redis(REDIS_URL);
      try {
        const keys = await redis.keys(`${stack.redisPrefix}:*`);
        expect(keys.some((k) => k.includes('exchange-session-keys'))).toBe(true);
        await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    } finally {
      await stack.restartApp('trading-executor');
    }
    const revokedAt = await waitFor(
      'the exchange to revoke the key',
      async () => (await exchangeKey(t.sessionKey))?.revoked_at ?? undefined,
      30_000,
    );
    expect(revokedAt).toBeInstanceOf(Date);
    await waitFor(
      'the revocation to be confirmed',
      async () =>
        (
          await sql<{ confirmed_at: Date | null }>(
            stack,
            'SELECT confirmed_at FROM oauth.pending_revocations WHERE session_key = $1',
            [t.sessionKey],
          )
        )[0]?.confirmed_at ?? undefined,
      30_000,
    );
  });

  it('revoke then open, 100 times: no open sent after the owner’s answer ever fills', async () => {
    const ownerPrivateKey = generatePrivateKey();
    const rounds: { sessionKey: string; answeredAt: number }[] = [];
    let owner: Awaited<ReturnType<typeof signInOwner>> | undefined;
    for (let round = 0; round < 100; round += 1) {
      const t = await connectTrader(stack, issuer, {
        ownerPrivateKey,
        fundUsd: round === 0 ? 20_000 : 0,
        guardrails: { requireConfirmation: false },
      });
      owner ??= await signInOwner(base, ownerPrivateKey);
      let answeredAt = Number.POSITIVE_INFINITY;
      const afterAnswer: { status: number; ok: boolean }[] = [];
      let sent = 0;
      const lane = async () => {
        while (afterAnswer.length < 4 && sent < 200) {
          const sentAt = Date.now();
          sent += 1;
          const side = round % 2 === 0 ? 'long' : 'short';
          const res = await callTool(base, 'open_position', { ...OPEN, side }, { token: t.token });
          if (sentAt > answeredAt) afterAnswer.push({ status: res.status, ok: res.body.ok });
        }
      };
      const lanes = [lane(), lane()];
      await until('the first open sent', () => sent > 0 + (round % 3));
      const answer = await revokeOnConnectionsPage(base, owner, `keys/${t.sessionKey}`);
      answeredAt = answer.answeredAt;
      expect({ round, status: answer.status }).toEqual({ round, status: 303 });
      await Promise.all(lanes);
      expect(afterAnswer.filter((a) => a.ok || a.status === 200)).toEqual([]);
      rounds.push({ sessionKey: t.sessionKey, answeredAt });
    }
    // The race is real: opens sent before the answers filled.
    const filled = await sql(
      stack,
      `SELECT id FROM exchange.intents WHERE session_key = ANY($1) AND kind = 'open' AND status = 'executed'`,
      [rounds.map((r) => r.sessionKey)],
    );
    expect(filled.length).toBeGreaterThan(0);
    // Nothing still queued filled later either: no open of a revoked key executed after the answer.
    for (const { sessionKey, answeredAt } of rounds) {
      const late = await sql(
        stack,
        `SELECT id FROM exchange.intents WHERE session_key = $1 AND kind = 'open' AND status = 'executed'
            AND (created_at > to_timestamp($2::double precision / 1000) OR executed_at > to_timestamp($2::double precision / 1000))`,
        [sessionKey, answeredAt],
      );
      expect({ sessionKey, late }).toEqual({ sessionKey, late: [] });
    }
  }, 600_000);
});

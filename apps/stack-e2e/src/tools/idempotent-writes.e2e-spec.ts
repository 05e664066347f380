import { mcpResource } from '@paper/contracts';
import { type TestStack, startTestStack } from '@paper/dev-stack';
import { connectMcp, callTool as mcpCall, type McpConnection, resultText } from '../mcp/mcp-test-client';
import { expectValidData } from './output-schemas';
import { callTool, connectTrader, sql, TRADING_APPS, type Trader, waitForPrices } from './tool-test-kit';
import { startTestIssuer, type TestIssuer } from './token-issuer';

// 100x: the bust price is about 1% away, so the live price's drift cannot liquidate a position during a test.
const OPEN = { market: 'BTC', side: 'long', marginUsd: 100, leverage: 100 } as const;

describe('tool API: writes with a client key (clientOrderId, Idempotency-Key) run at most once', () => {
  let stack: TestStack;
  let issuer: TestIssuer;
  let base: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    stack = await startTestStack({ apps: [...TRADING_APPS, 'mcp-server'], env: { OAUTH_JWKS_URL: issuer.jwksUrl } });
    base = stack.baseUrl;
    issuer.bind(base);
    await waitForPrices(base);
  });

  afterAll(async () => {
    await stack?.stop();
    await issuer?.stop();
  });

  const trader = () => connectTrader(stack, issuer, { guardrails: { requireConfirmation: false }, fundUsd: 1000 });
  const me = (t: Trader, name: string, args: Record<string, unknown>, headers?: Record<string, string>) =>
    callTool(base, name, args, { token: t.token, headers });
  const positionsOf = (t: Trader) =>
    sql<{ id: string; status: string }>(
      stack,
      `SELECT id::text AS id, status FROM exchange.positions WHERE wallet = $1 ORDER BY id`,
      [t.wallet],
    );

  it('answers a repeated open with the first answer, marked as a replay, and opens once', async () => {
    const t = await trader();
    const first = await me(t, 'open_position', { ...OPEN, clientOrderId: 'open-1' });
    expect({ status: first.status, error: first.body.error }).toEqual({ status: 200, error: undefined });
    expect(first.body.data!['status']).toBe('filled');
    expect(first.body).not.toHaveProperty('replayed');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await me(t, 'open_position', { ...OPEN, clientOrderId: 'open-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toMatchObject({ ok: true, replayed: true, data: first.body.data });
    expectValidData('open_position', again.body.data);
    expect(again.body.summary).toMatch(/^This is the first answer to this clientOrderId, sent again/);
    expect(await positionsOf(t)).toEqual([{ id: first.body.data!['position'].positionId, status: 'open' }]);
  });

  it('refuses the same key with other arguments (409 idempotency_key_mismatch) and does nothing', async () => {
    const t = await trader();
    await me(t, 'open_position', { ...OPEN, clientOrderId: 'k' });
    const other = await me(t, 'open_position', { ...OPEN, marginUsd: 110, clientOrderId: 'k' });
    expect(other.status).toBe(409);
    expect(other.body.error!.code).toBe('idempotency_key_mismatch');
    // Another tool under the same key is another request too.
    const close = await me(t, 'close_positions', { all: true, clientOrderId: 'k' });
    expect(close.status).toBe(409);
    expect(await positionsOf(t)).toHaveLength(1);
    // Keys are per wallet: another wallet may use the same one.
    const u = await trader();
    expect((await me(u, 'open_position', { ...OPEN, clientOrderId: 'k' })).body.data!['status']).toBe('filled');
  });

  it('runs concurrent calls with one key once: the others wait for its answer', async () => {
    const t = await trader();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => me(t, 'open_position', { ...OPEN, clientOrderId: 'race' })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const ids = new Set(answers.map((a) => a.body.data!['position'].positionId));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.body.replayed === true)).toHaveLength(5);
    expect(await positionsOf(t)).toHaveLength(1);
  });

  it('takes the Idempotency-Key header as the same key on REST, and refuses a header that disagrees', async () => {
    const t = await trader();
    const opened = await me(t, 'open_position', OPEN, { 'idempotency-key': 'hdr-1' });
    expect(opened.body.data!['status']).toBe('filled');
    const viaArgument = await me(t, 'open_position', { ...OPEN, clientOrderId: 'hdr-1' });
    expect(viaArgument.body.replayed).toBe(true);
    const both = await me(t, 'open_position', { ...OPEN, clientOrderId: 'x' }, { 'idempotency-key': 'y' });
    expect(both.status).toBe(400);
    expect(both.body.error!.code).toBe('invalid_arguments');
    const bad = await me(t, 'open_position', OPEN, { 'idempotency-key': 'a b' });
    expect(bad.status).toBe(400);
    // A read tool ignores the header (it changes nothing).
    expect((await me(t, 'get_account', {}, { 'idempotency-key': 'r' })).status).toBe(200);
    expect(await positionsOf(t)).toHaveLength(1);
  });

  it('replays a refusal as it was first given, and closes once', async () => {
    const t = await trader();
    const tooBig = { ...OPEN, marginUsd: 5000, clientOrderId: 'big' };
    const refused = await me(t, 'open_position', tooBig);
    expect(refused.status).toBe(400);
    const again = await me(t, 'open_position', tooBig);
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 400, error: refused.body.error });
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const opened = await me(t, 'open_position', { ...OPEN, clientOrderId: 'o' });
    const positionId = opened.body.data!['position'].positionId as string;
    const close = { positionIds: [positionId], clientOrderId: 'c' };
    const closed = await me(t, 'close_positions', close);
    expect(closed.body.data!['closed']).toBe(1);
    const closedAgain = await me(t, 'close_positions', close);
    expect(closedAgain.body).toMatchObject({ replayed: true, data: closed.body.data });
    // Without the key a second close reports the position as already closed: nothing to compare with.
    expect((await me(t, 'close_positions', { positionIds: [positionId] })).body.data!['results'][0].status).toBe(
      'skipped',
    );
    expect(await positionsOf(t)).toEqual([{ id: positionId, status: 'closed' }]);
  });

  describe('over MCP', () => {
    let t: Trader;
    let mcp: McpConnection;

    beforeAll(async () => {
      t = await trader();
      const token = await issuer.mint({ wallet: t.wallet, sessionKey: t.sessionKey, audience: mcpResource(base) });
      mcp = await connectMcp(base, { token });
    });

    afterAll(async () => {
      await mcp?.close();
    });

    it('takes clientOrderId as an argument: a repeated call answers the first result and opens once', async () => {
      const first = await mcpCall(mcp.client, 'open_position', { ...OPEN, clientOrderId: 'mcp-1' });
      expect(first.isError).toBeFalsy();
      const again = await mcpCall(mcp.client, 'open_position', { ...OPEN, clientOrderId: 'mcp-1' });
      expect(again.isError).toBeFalsy();
      expect(again.structuredContent).toEqual(first.structuredContent);
      expect(resultText(again)).toMatch(/^This is the first answer to this clientOrderId, sent again/);
      const mismatch = await mcpCall(mcp.client, 'open_position', { ...OPEN, leverage: 50, clientOrderId: 'mcp-1' });
      expect(mismatch.isError).toBe(true);
      expect(resultText(mismatch)).toMatch(/^idempotency_key_mismatch: /);
      // The same wallet's key on REST is the same key.
      const rest = await me(t, 'open_position', { ...OPEN, clientOrderId: 'mcp-1' });
      expect(rest.body.replayed).toBe(true);
      expect(await positionsOf(t)).toHaveLength(1);
    });
  });
});

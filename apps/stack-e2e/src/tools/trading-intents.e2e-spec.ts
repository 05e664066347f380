import { expectValidData } from './output-schemas';
import { callTool, connectTrader, sql, waitFor } from './tool-test-kit';
import { LONG_BTC, useTradingSuite } from './trading-suite';

describe('tool API: closing, cancelling, and intents that are pending or not queued', () => {
  // One intent at a time, so a cancel queued ahead of its target is always executed first.
  const suite = useTradingSuite({ INTENT_WAIT_MS: '3000', INTENT_CONCURRENCY: '1' });
  const intentStatus = async (intentId: string) =>
    (await callTool(suite.base, 'get_intent_status', { intentId })).body.data!;

  it('closes more than 12 positions in several signed intents and reports each settled result', async () => {
    const t = await connectTrader(suite.stack, suite.issuer, {
      guardrails: { requireConfirmation: false },
      fundUsd: 2000,
    });
    const ids: string[] = [];
    for (let i = 0; i < 13; i += 1) {
      // 100x: the bust price is about 1% away, so the live price's drift cannot liquidate them before the close.
      const res = await suite.me(
        'open_position',
        { ...LONG_BTC, marginUsd: 100, leverage: 100, market: i % 2 ? 'ETH' : 'BTC' },
        t,
      );
      expect(res.body.data!['status']).toBe('filled');
      ids.push(res.body.data!['position'].positionId);
    }
    const res = await suite.me('close_positions', { positionIds: ids }, t);
    expect(res.status).toBe(200);
    const d = res.body.data!;
    expectValidData('close_positions', d);
    expect(d['intentIds']).toHaveLength(2);
    expect(d['closed']).toBe(13);
    expect(d['results'].map((r: { positionId: string }) => r.positionId).sort()).toEqual([...ids].sort());
    for (const r of d['results']) {
      expect(r.status).toBe('closed');
      expect(typeof r.pnlUsd).toBe('number');
      expect(r.exitPrice).toBeGreaterThan(0);
    }
    const again = await suite.me('close_positions', { positionIds: ids.slice(0, 2) }, t);
    expect(again.body.data!['results'].map((r: { status: string }) => r.status)).toEqual(['skipped', 'skipped']);
  });

  it('closes all positions of one market with all=true and market', async () => {
    const t = await connectTrader(suite.stack, suite.issuer, {
      guardrails: { requireConfirmation: false },
      fundUsd: 1000,
    });
    await suite.me('open_position', LONG_BTC, t);
    await suite.me('open_position', { ...LONG_BTC, market: 'ETH' }, t);
    const res = await suite.me('close_positions', { all: true, market: 'ETH' }, t);
    expect(res.body.data!['results']).toHaveLength(1);
    expect(res.body.data!['results'][0]).toMatchObject({ market: 'ETH', status: 'closed' });
    const account = await suite.me('get_account', {}, t);
    expect(account.body.data!['positions'].map((p: { market: string }) => p.market)).toEqual(['BTC']);
    const none = await suite.me('close_positions', { all: true, market: 'ETH' }, t);
    expect(none.body.data!['results']).toEqual([]);
    expect(none.body.summary).toContain('no open ETH positions');
  });

  it('refuses positions of another wallet, and unclear requests', async () => {
    const stranger = await suite.me('close_positions', { positionIds: ['999999'] });
    expect(stranger.status).toBe(404);
    expect(stranger.body.error!.code).toBe('not_found');
    for (const args of [{}, { positionIds: ['1'], all: true }, { market: 'BTC' }]) {
      const res = await suite.me('close_positions', args);
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('invalid_arguments');
    }
  });

  it('reports an open and a close as pending (never failed) when the executor does not answer, keeps the quote used, and cancels while queued', async () => {
    const t = await connectTrader(suite.stack, suite.issuer, { fundUsd: 1000 });
    const first = await suite.me('open_position', { ...LONG_BTC, quoteId: await suite.preview(LONG_BTC, t) }, t);
    expect(first.body.data!['status']).toBe('filled');
    const positionId = first.body.data!['position'].positionId as string;
    const quoteId = await suite.preview(LONG_BTC, t);
    await suite.stack.stopApp('trading-executor');
    let restarted = false;
    try {
      const open = await suite.me('open_position', { ...LONG_BTC, quoteId }, t);
      expect(open.status).toBe(200);
      expectValidData('open_position', open.body.data);
      expect(open.body.data).toMatchObject({ status: 'pending', position: null });
      expect(open.body.summary).toMatch(/pending, not failed/);
      // It may still execute, so its quote stays used.
      expect((await suite.quote(quoteId))['usedAt']).toBeDefined();
      expect((await suite.me('open_position', { ...LONG_BTC, quoteId }, t)).body.error!.code).toBe('quote_used');
      const openIntent = open.body.data!['intentId'] as string;
      expect(await intentStatus(openIntent)).toMatchObject({ status: 'queued', pending: true, kind: 'open' });

      const close = await suite.me('close_positions', { positionIds: [positionId] }, t);
      expect(close.status).toBe(200);
      expectValidData('close_positions', close.body.data);
      expect(close.body.data).toMatchObject({ closed: 0, pending: 1, results: [{ positionId, status: 'pending' }] });
      expect(close.body.summary).toMatch(/still pending/);
      const closeIntent = close.body.data!['intentIds'][0] as string;
      expect(close.body.data!['results'][0].intentId).toBe(closeIntent);
      expect(await intentStatus(closeIntent)).toMatchObject({ status: 'queued', pending: true, kind: 'close' });

      const account = await suite.me('get_account', {}, t);
      expect(account.body.data!['pendingIntents']).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ intentId: openIntent, kind: 'open', market: 'BTC', marginUsd: 10 }),
        ]),
      );
      const cancel = await suite.me('cancel_intent', { intentId: openIntent }, t);
      expect(cancel.status).toBe(200);
      expectValidData('cancel_intent', cancel.body.data);
      expect(cancel.body.data).toMatchObject({ intentId: openIntent, status: 'pending' });

      await suite.stack.restartApp('trading-executor');
      restarted = true;
      const settled = async (intentId: string) =>
        waitFor(`intent ${intentId} to leave the queue`, async () => {
          const data = await intentStatus(intentId);
          return data['pending'] ? undefined : data;
        });
      expect(await settled(openIntent)).toMatchObject({ status: 'cancelled', pending: false });
      expect(await settled(closeIntent)).toMatchObject({ status: 'executed', positionIds: [positionId] });
      const positions = await sql<{ id: string; status: string }>(
        suite.stack,
        `SELECT id::text AS id, status FROM exchange.positions WHERE wallet = $1`,
        [t.wallet],
      );
      expect(positions).toEqual([{ id: positionId, status: 'closed' }]);
    } finally {
      if (!restarted) await suite.stack.restartApp('trading-executor');
    }
  });

  it('answers 503 with Retry-After and releases the quote when the inbox cannot be written: nothing was accepted', async () => {
    const quoteId = await suite.preview(LONG_BTC);
    const before = await sql<{ n: number }>(suite.stack, `SELECT count(*)::int AS n FROM exchange.intents`);
    await sql(
      suite.stack,
      `CREATE FUNCTION exchange.inbox_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'inbox unavailable'; END $$`,
    );
    await sql(
      suite.stack,
      `CREATE TRIGGER inbox_down BEFORE INSERT ON exchange.intents FOR EACH ROW EXECUTE FUNCTION exchange.inbox_down()`,
    );
    let refused;
    try {
      refused = await suite.me('open_position', { ...LONG_BTC, quoteId });
    } finally {
      await sql(suite.stack, `DROP TRIGGER inbox_down ON exchange.intents`);
      await sql(suite.stack, `DROP FUNCTION exchange.inbox_down()`);
    }
    expect(refused.status).toBe(503);
    expect(refused.body.error!.code).toBe('exchange_unavailable');
    expect(refused.body.error!.message).toContain(`quote ${quoteId} can still be used`);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await sql(suite.stack, `SELECT count(*)::int AS n FROM exchange.intents`)).toEqual(before);
    expect((await suite.quote(quoteId))['usedAt']).toBeUndefined();
    const retried = await suite.me('open_position', { ...LONG_BTC, quoteId });
    expect(retried.status).toBe(200);
    expectValidData('open_position', retried.body.data);
    expect(retried.body.data!['status']).toBe('filled');
    expect((await suite.quote(quoteId))['usedAt']).toBeDefined();
  });

  it('accepts an intent the queue refuses to wake: reported pending at once, then run by the sweeper', async () => {
    const quoteId = await suite.preview(LONG_BTC);
    // The queue refuses every job while its id counter is not a number: the add script fails before writing.
    const counter = `${suite.stack.redisPrefix}:bull:exchange-intents:id`;
    const saved = await suite.redis.get(counter);
    await suite.redis.set(counter, 'not-a-number');
    let accepted;
    try {
      accepted = await suite.me('open_position', { ...LONG_BTC, quoteId });
    } finally {
      if (saved === null) await suite.redis.del(counter);
      else await suite.redis.set(counter, saved);
    }
    expect(accepted.status).toBe(200);
    expectValidData('open_position', accepted.body.data);
    expect(accepted.body.data).toMatchObject({ status: 'pending', position: null });
    const intentId = accepted.body.data!['intentId'] as string;
    expect((await suite.quote(quoteId))['usedAt']).toBeDefined();
    const done = await waitFor(`intent ${intentId} to be run by the sweeper`, async () => {
      const data = await intentStatus(intentId);
      return data['pending'] ? undefined : data;
    });
    expect(done).toMatchObject({ status: 'executed', kind: 'open', positionIds: [expect.any(String)] });
  });

  it('refuses to cancel an intent that already executed, and unknown intents', async () => {
    const quoteId = await suite.preview(LONG_BTC);
    const open = await suite.me('open_position', { ...LONG_BTC, quoteId });
    const res = await suite.me('cancel_intent', { intentId: open.body.data!['intentId'] });
    expect(res.status).toBe(400);
    expect(res.body.error!.code).toBe('trade_refused');
    expect(res.body.error!.message).toContain('close the position');
    const unknown = await suite.me('cancel_intent', { intentId: `0x${'cd'.repeat(32)}` });
    expect(unknown.status).toBe(404);
  });
});

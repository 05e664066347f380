import { EXCHANGE_EVENT_DATA, exchangeEventSchema, priceEventSchema } from '@paper/contracts';
import { openStream, until } from './event-stream-client';
import { callTool, connectTrader, sql } from './tool-test-kit';
import { LONG_BTC, useTradingSuite } from './trading-suite';

describe('event streams (SSE) and get_events, with a real EventSource client', () => {
  const suite = useTradingSuite({ EVENT_STREAM_PRICE_MS: '100' });

  /** Appends `n` events of `wallet` to the log in `batches` transactions, as the executor does (one lock, one notify each). */
  const burst = async (wallet: string, n: number, batches: number) => {
    for (let b = 0; b < batches; b += 1) {
      const count = n / batches;
      await sql(
        suite.stack,
        `WITH lock AS (SELECT pg_advisory_xact_lock(1163284052, 1)), ins AS (
           INSERT INTO exchange.events (type, wallet, data)
           SELECT 'deposit.credited', $1, jsonb_build_object('amountUsd', g, 'feeUsd', 0, 'txHash', NULL) FROM generate_series(1, $2::int) g CROSS JOIN lock ORDER BY g
           RETURNING id)
         SELECT pg_notify('exchange_events', max(id)::text) FROM ins`,
        [wallet, count],
      );
    }
  };

  it('streams a trade to the public stream and to the trader’s own stream, in the contract’s shape', async () => {
    const t = await connectTrader(suite.stack, suite.issuer, {
      guardrails: { requireConfirmation: false },
      fundUsd: 1000,
    });
    const pub = openStream(`${suite.base}/api/v1/events?types=position.opened,position.closed&market=BTC`);
    const mine = openStream(`${suite.base}/api/v1/me/events`, t.token);
    try {
      await until('both streams open', () => pub.source.readyState === 1 && mine.source.readyState === 1);
      const opened = await suite.me('open_position', LONG_BTC, t);
      const positionId = opened.body.data!['position'].positionId as string;
      await suite.me('close_positions', { positionIds: [positionId] }, t);
      await until('the close on the public stream', () =>
        pub.received.some(
          (e) =>
            e.type === 'position.closed' &&
            e.data['data'] &&
            (e.data['data'] as { positionId: string }).positionId === positionId,
        ),
      );
      await until('the close on the trader’s stream', () => mine.received.some((e) => e.type === 'position.closed'));
      const publicTrades = pub.received.filter(
        (e) => (e.data['data'] as { positionId?: string }).positionId === positionId,
      );
      expect(publicTrades.map((e) => e.type)).toEqual(['position.opened', 'position.closed']);
      for (const e of [...pub.received, ...mine.received]) {
        expect(exchangeEventSchema.parse(e.data)).toEqual(e.data);
        expect(e.id).toBe(e.data['id']);
        EXCHANGE_EVENT_DATA[e.type as keyof typeof EXCHANGE_EVENT_DATA].parse(e.data['data']);
      }
      expect(mine.received.map((e) => e.type)).toEqual([
        'intent.accepted',
        'intent.executed',
        'position.opened',
        'intent.accepted',
        'intent.executed',
        'position.closed',
      ]);
      expect(mine.received.every((e) => e.data['wallet'] === t.wallet)).toBe(true);
    } finally {
      pub.source.close();
      mine.source.close();
    }
  });

  it('relays live price ticks (not logged) on the public stream', async () => {
    const prices = openStream(`${suite.base}/api/v1/events?types=price&market=ETH`);
    try {
      await until('two ETH price ticks', () => prices.received.filter((e) => e.type === 'price').length >= 2, 30_000);
      for (const e of prices.received) {
        expect(priceEventSchema.parse(e.data)).toMatchObject({ market: 'ETH' });
        expect(e.id).toBe('');
      }
    } finally {
      prices.source.close();
    }
  });

  it('resumes after a disconnect mid-burst from Last-Event-ID: every event exactly once, in order', async () => {
    const t = await connectTrader(suite.stack, suite.issuer, { fundUsd: 0 });
    const first = openStream(`${suite.base}/api/v1/me/events?types=deposit.credited`, t.token);
    await until('the stream to open', () => first.source.readyState === 1);
    const writing = burst(t.wallet, 600, 30);
    await until('part of the burst', () => first.received.length >= 100);
    first.source.close();
    const seen = [...first.received];
    const resumeAfter = seen[seen.length - 1]!.id;
    await writing;
    const second = openStream(
      `${suite.base}/api/v1/me/events?types=deposit.credited&lastEventId=${resumeAfter}`,
      t.token,
    );
    try {
      await until('the rest of the burst', () => seen.length + second.received.length >= 600);
      const all = [...seen, ...second.received];
      const logged = await sql<{ cursor: string }>(
        suite.stack,
        `SELECT id::text AS cursor FROM exchange.events WHERE wallet = $1 AND type = 'deposit.credited' ORDER BY id`,
        [t.wallet],
      );
      expect(all.map((e) => e.id)).toEqual(logged.map((r) => r.cursor));
      expect(all.map((e) => (e.data['data'] as { amountUsd: number }).amountUsd)).toEqual(
        Array.from({ length: 30 }, () => Array.from({ length: 20 }, (_, i) => i + 1)).flat(),
      );
    } finally {
      second.source.close();
    }
  });

  it('answers a cursor older than the retention with event: reset, then the oldest event kept', async () => {
    const t = await connectTrader(suite.stack, suite.issuer, { fundUsd: 0 });
    await burst(t.wallet, 4, 1);
    const [oldest] = await sql<{ id: string }>(
      suite.stack,
      `SELECT min(id)::text AS id FROM exchange.events WHERE wallet = $1`,
      [t.wallet],
    );
    await sql(suite.stack, `DELETE FROM exchange.events WHERE id < $1`, [oldest!.id]);
    // A cursor at 1 while the events after it up to the oldest kept were dropped: reset first.
    {
      const res = await fetch(`${suite.base}/api/v1/me/events?lastEventId=1`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('event: deposit.credited')) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      expect(text.startsWith('retry: 2000\n\n')).toBe(true);
      const reset = text.indexOf('event: reset');
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThan(text.indexOf('event: deposit.credited'));
      expect(text).toContain(`"resumeAfter":"${BigInt(oldest!.id) - 1n}"`);
      expect(text).toContain(`id: ${oldest!.id}\nevent: deposit.credited`);
    }
  });

  it('refuses bad requests in the tool API’s error shape: unknown types, bad cursor, unknown parameter, no token', async () => {
    const cases: [string, number, string][] = [
      ['/api/v1/events?types=intent.accepted', 400, 'invalid_arguments'],
      ['/api/v1/events?lastEventId=abc', 400, 'invalid_arguments'],
      ['/api/v1/events?surprise=1', 400, 'invalid_arguments'],
      ['/api/v1/events?wallet=0x12', 400, 'invalid_arguments'],
      ['/api/v1/me/events', 401, 'unauthorized'],
    ];
    for (const [path, status, code] of cases) {
      const res = await fetch(`${suite.base}${path}`);
      expect([path, res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([
        path,
        status,
        code,
      ]);
    }
    const open = await fetch(`${suite.base}/api/v1/events`, { headers: { origin: 'https://bot.example' } });
    expect([open.status, open.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
    await open.body!.cancel();
  });

  it('get_events pages the log by cursor: public activity without a token, everything of the wallet with one', async () => {
    const t = await connectTrader(suite.stack, suite.issuer, {
      guardrails: { requireConfirmation: false },
      fundUsd: 1000,
    });
    await suite.me('open_position', LONG_BTC, t);
    const own = await suite.me('get_events', { after: '0', limit: 500 }, t);
    expect(own.status).toBe(200);
    const ownEvents = own.body.data!['events'] as { type: string; wallet: string; id: string }[];
    expect(ownEvents.map((e) => e.type)).toEqual([
      'deposit.credited',
      'intent.accepted',
      'intent.executed',
      'position.opened',
    ]);
    expect(own.body.data!['nextCursor']).toBe(ownEvents[ownEvents.length - 1]!.id);
    const later = await suite.me('get_events', { after: own.body.data!['nextCursor'] }, t);
    expect(later.body.data).toMatchObject({
      events: [],
      nextCursor: own.body.data!['nextCursor'],
      more: false,
      reset: false,
    });
    const publicPage = await callTool(suite.base, 'get_events', { wallet: t.wallet, limit: 10 });
    expect((publicPage.body.data!['events'] as { type: string }[]).map((e) => e.type)).toEqual(['position.opened']);
    const paged = await suite.me('get_events', { limit: 1 }, t);
    expect(paged.body.data).toMatchObject({ more: true });
    expect(paged.body.data!['events']).toHaveLength(1);
  });
});

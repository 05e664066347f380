import { eventually, newAccount, sql } from '../alerts/alerts-test-kit';
import { callTool, connectTrader } from '../tools/tool-test-kit';
import { type DeliveryWorld, startDeliveryWorld } from './alerts-delivery-kit';

const TRADERS = 4;
const OPENS_PER_TRADER = 125; // 500 opens and 500 closes: 1,000 trades
const POLLER_DOWN_MS = 60_000;

/** Counts the alerts of one kind an account has, straight from the alerts schema (the API pages by 100). */
const alertCounts = (world: DeliveryWorld, accountId: string) =>
  sql<{ kind: string; n: number; positions: number }>(
    world.stack.database.url,
    `SELECT kind, count(*)::int AS n, count(DISTINCT details->>'positionId')::int AS positions FROM alerts.alerts WHERE account_id = $1 GROUP BY kind`,
    [accountId],
  );

describe('alerts driven by the exchange event log: a poller down for 60 s during a burst of 1,000 trades misses none', () => {
  let world: DeliveryWorld;

  beforeAll(async () => {
    world = await startDeliveryWorld();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('raises an opened and a closed alert for every watched trade once the poller is back', async () => {
    const traders = await Promise.all(
      Array.from({ length: TRADERS }, () =>
        connectTrader(world.stack, world.issuer, { guardrails: { requireConfirmation: false }, fundUsd: 2000 }),
      ),
    );
    const account = await newAccount(world.call);
    for (const t of traders) {
      const watch = await world.call('POST', '/api/watches', {
        token: account.token,
        body: {
          address: t.wallet,
          rules: {
            liquidation: { enabled: false },
            opened: true,
            closed: true,
            liquidated: true,
            sessionKey: { enabled: false },
          },
        },
      });
      expect(watch.status).toBe(201);
    }
    // The poller has read the log once (its cursor is in PostgreSQL) before it goes down.
    await eventually(
      async () => {
        const [row] = await sql<{ details: { cursor?: { eventId?: string } } }>(
          world.stack.database.url,
          `SELECT details FROM alerts.poll_status WHERE name = 'wallets'`,
        );
        return row?.details.cursor?.eventId !== undefined;
      },
      30_000,
      'the poller to hold a log cursor',
    );

    await world.stack.stopApp('alerts-poller');
    const downSince = Date.now();
    const opened: string[] = [];
    await Promise.all(
      traders.map(async (t) => {
        for (let i = 0; i < OPENS_PER_TRADER; i += 1) {
          const res = await callTool(
            world.stack.baseUrl,
            'open_position',
            { market: i % 2 ? 'ETH' : 'BTC', side: i % 3 ? 'long' : 'short', marginUsd: 10, leverage: 1000 },
            { token: t.token, honourRetryAfter: true },
          );
          if (res.body.data?.['status'] !== 'filled')
            throw new Error(`open ${i}: ${res.status} ${JSON.stringify(res.body)}`);
          opened.push(res.body.data!['position'].positionId as string);
        }
        const closed = await callTool(
          world.stack.baseUrl,
          'close_positions',
          { all: true },
          { token: t.token, honourRetryAfter: true },
        );
        expect(closed.body.data?.['closed']).toBe(OPENS_PER_TRADER);
      }),
    );
    expect(opened).toHaveLength(TRADERS * OPENS_PER_TRADER);
    // The burst happened while the poller was down; it stays down for the whole minute.
    await new Promise((r) => setTimeout(r, Math.max(0, POLLER_DOWN_MS - (Date.now() - downSince))));
    await world.stack.restartApp('alerts-poller');

    const total = TRADERS * OPENS_PER_TRADER;
    const counts = await eventually(
      async () => {
        const rows = await alertCounts(world, account.id);
        const byKind = Object.fromEntries(rows.map((r) => [r.kind, r]));
        return byKind['position_opened']?.n === total && byKind['position_closed']?.n === total ? byKind : undefined;
      },
      90_000,
      `${total} opened and ${total} closed alerts`,
    );
    expect(counts['position_opened']).toMatchObject({ n: total, positions: total });
    expect(counts['position_closed']).toMatchObject({ n: total, positions: total });
    const [covered] = await sql<{ n: number }>(
      world.stack.database.url,
      `SELECT count(DISTINCT details->>'positionId')::int AS n FROM alerts.alerts WHERE account_id = $1 AND details->>'positionId' = ANY($2::text[])`,
      [account.id, opened],
    );
    expect(covered!.n).toBe(total);
  });
});

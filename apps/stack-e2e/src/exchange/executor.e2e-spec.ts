import {
  INTENTS_DUE_JOB_ID,
  INTENTS_QUEUE,
  type IntentResult,
  SESSION_KEYS_QUEUE,
  type SessionKeyResult,
  type SignedIntentPayload,
} from '@paper/contracts';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import { usdc } from '@paper/exchange';
import { acceptIntents } from '@paper/exchange-data';
import {
  approvalFromGuardrails,
  type IntentMessage,
  intentId,
  newOwnerAction,
  ownerActionId,
  ownerActionMessageStrings,
  signApproval,
  signIntent,
  signOwnerAction,
} from '@paper/exchange-signing';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `condition not met within ${timeoutMs} ms (last value ${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))})`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

const GUARDRAILS = {
  maxMarginPerTradeUsd: null,
  maxLeverage: null,
  maxDailyNotionalUsd: null,
  maxOpenPositions: null,
  allowedMarkets: null,
  requireConfirmation: false,
};

describe('trading-executor with venue-sim (signed intents over the queue)', () => {
  let stack: TestStack;
  let db: Client;
  let intents: Queue;
  let sessionKeys: Queue;
  const owner = generatePrivateKey();
  const session = generatePrivateKey();
  const wallet = privateKeyToAccount(owner).address.toLowerCase() as Hex;
  const sessionKey = privateKeyToAccount(session).address.toLowerCase();
  let nonce = 1n;
  let redis: Redis;

  const post = async (url: string, body: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const sim = (path: string, body: unknown) => post(`${stack.appUrls['venue-sim']}/control/${path}`, body);
  const exec = (path: string, body: unknown) => post(`${stack.appUrls['trading-executor']}${path}`, body);
  const one = async <T = Record<string, string>>(text: string, params: unknown[] = []) =>
    (await db.query(text, params)).rows[0] as T;

  async function signed(intent: IntentMessage): Promise<SignedIntentPayload> {
    const message = Object.fromEntries(
      Object.entries(intent.message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
    );
    return {
      kind: intent.kind,
      message,
      sessionKey,
      signature: await signIntent(intent, session),
      intentId: intentId(intent),
    } as SignedIntentPayload;
  }
  const openIntent = (marginUsd: number, leverage: number) =>
    signed({
      kind: 'open',
      message: {
        wallet,
        market: 'BTC',
        side: 'long',
        marginMicro: usdc(marginUsd),
        leverage,
        nonce: nonce++,
        expiresAt: BigInt(Math.floor(Date.now() / 1000) + 3000),
      },
    });
  const readMid = async () => (await redis.hget(`${stack.redisPrefix}:prices:BTC`, 'mid')) ?? undefined;

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['venue-sim', 'trading-executor'],
      env: { SWEEP_DEPOSITS_EVERY_MS: '500', INTENT_LOCK_MS: '3000', PRICE_POLL_MS: '250' },
    });
    db = new Client({ connectionString: stack.database.url });
    await db.connect();
    const connection = { host: '127.0.0.1', port: 6379 };
    const prefix = `${stack.redisPrefix}:bull`;
    intents = new Queue(INTENTS_QUEUE.queue, { connection, prefix });
    sessionKeys = new Queue(SESSION_KEYS_QUEUE.queue, { connection, prefix });
    redis = new Redis('redis://127.0.0.1:6379');
  });

  afterAll(async () => {
    await intents?.close();
    await sessionKeys?.close();
    await redis?.quit();
    await db?.end();
    await stack?.stop();
  });

  it('registers a session key approved by the owner', async () => {
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 86400);
    const approvalSignature = await signApproval(
      approvalFromGuardrails(wallet, sessionKey, GUARDRAILS, expiresAt),
      owner,
    );
    const job = await sessionKeys.add(
      'register-session-key',
      { wallet, sessionKey, guardrails: GUARDRAILS, expiresAt: expiresAt.toString(), approvalSignature, label: 'e2e' },
      { jobId: `sk-${sessionKey}` },
    );
    const skEvents = new QueueEvents(SESSION_KEYS_QUEUE.queue, {
      connection: { host: '127.0.0.1', port: 6379 },
      prefix: `${stack.redisPrefix}:bull`,
    });
    try {
      const result = (await job.waitUntilFinished(skEvents, 20_000)) as SessionKeyResult;
      expect(result).toMatchObject({ status: 'registered', wallet });
    } finally {
      await skEvents.close();
    }
  });

  it('funds the wallet through the faucet, its deposit proxy and the sweep job', async () => {
    expect((await exec('/dev/faucet', { wallet, usdc: '2000' })).body).toMatchObject({
      ok: true,
      data: { chainBalances: { usdc: '2000', eth: '0.05' } },
    });
    const deposit = await exec('/dev/deposit', { wallet, usdc: '1000' });
    expect(deposit.status).toBe(200);
    const account = await until(
      () => one(`SELECT free_micro, activated FROM exchange.accounts WHERE wallet = $1`, [wallet]),
      (a) => a?.['free_micro'] === String(usdc(999)),
    );
    expect(account['activated']).toBe(true);
    expect((await exec('/dev/deposit', { wallet, usdc: '5000' })).body).toMatchObject({
      ok: false,
      error: { code: 'insufficient_chain_balance' },
    });
  });

  it('opens a position from a signed intent on the queue and liquidates it when venue-sim moves past the bust price', async () => {
    await sim('freeze', { frozen: true });
    await sim('price', { coin: 'BTC', price: 100000 });
    await until(readMid, (m) => m !== undefined && Math.abs(Number(m) - 1_000_000) <= 10);
    const payload = await openIntent(100, 500);
    // As the tool API does: the inbox row first (the intent is accepted), then the wake-up job.
    expect(await acceptIntents(db, [payload])).toEqual([{ state: 'accepted', id: payload.intentId.toLowerCase() }]);
    await intents.add('intents-due', {}, { jobId: INTENTS_DUE_JOB_ID, removeOnComplete: true, removeOnFail: true });
    const { result } = await until(
      () =>
        one<{ status: string; result: IntentResult }>(`SELECT status, result FROM exchange.intents WHERE id = $1`, [
          payload.intentId.toLowerCase(),
        ]),
      (r) => r.status !== 'queued',
    );
    expect(result).toMatchObject({ status: 'executed', opened: { market: 'BTC', side: 'long', leverage: 500 } });
    const id = result.opened!.positionId;
    const bust = Number(result.opened!.bustPrice);
    expect(bust).toBeLessThan(100000);
    await sim('price', { coin: 'BTC', price: bust - 20 });
    const pos = await until(
      () => one(`SELECT status, exit_price, pnl_micro FROM exchange.positions WHERE id = $1`, [id]),
      (p) => p['status'] === 'liquidated',
    );
    expect(pos['pnl_micro']).toBe(String(-usdc(100)));
    expect(Number(pos['exit_price']) / 10).toBeLessThanOrEqual(bust);
    const account = await one(`SELECT free_micro, locked_micro, paper_micro FROM exchange.accounts WHERE wallet = $1`, [
      wallet,
    ]);
    expect(account).toMatchObject({
      free_micro: String(usdc(899)),
      locked_micro: '0',
      paper_micro: String(usdc(100) * 100n),
    });
  });

  it('withdraws through the paper-mode owner-action endpoints when the wallet signs; a session key is refused', async () => {
    const prepared = await exec('/dev/owner-actions/typed-data', { kind: 'withdraw', wallet, usdc: '100' });
    expect(prepared.status).toBe(200);
    const data = prepared.body['data'] as {
      actionId: string;
      typedData: { domain: never; types: never; primaryType: never; message: Record<string, string> };
      submit: { kind: 'withdraw'; message: Record<string, string>; actionId: string };
    };
    // The wallet signs the typed data as eth_signTypedData_v4 would (integers arrive as decimal strings).
    const m = data.typedData.message;
    const message = {
      ...m,
      amountMicro: BigInt(m['amountMicro']!),
      nonce: BigInt(m['nonce']!),
      expiresAt: BigInt(m['expiresAt']!),
    };
    expect(ownerActionId({ kind: 'withdraw', message: message as never })).toBe(data.actionId);
    const signature = await privateKeyToAccount(owner).signTypedData({ ...data.typedData, message } as never);
    const done = await exec('/dev/owner-actions', { ...data.submit, signature });
    expect(done.body).toMatchObject({
      ok: true,
      data: { status: 'executed', kind: 'withdraw', amount: '100', chainUsdc: '1100', account: { freeUsd: '799' } },
    });
    expect(
      (await one(`SELECT amount FROM exchange.chain_balances WHERE address = $1 AND asset = 'USDC'`, [wallet]))[
        'amount'
      ],
    ).toBe(String(usdc(1100)));

    const bySessionKey = newOwnerAction('withdraw', wallet, { amountMicro: usdc(10) });
    const refused = await exec('/dev/owner-actions', {
      kind: 'withdraw',
      message: ownerActionMessageStrings(bySessionKey),
      signature: await signOwnerAction(bySessionKey, session),
      actionId: ownerActionId(bySessionKey),
    });
    expect(refused.body).toMatchObject({ ok: true, data: { status: 'refused', reason: 'session_key_not_allowed' } });
    expect((await exec('/dev/owner-actions', { kind: 'withdraw' })).body).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    // An expiry past uint64 cannot be the signed one: refused as input, never queued to fail there.
    const tooFar = await exec('/dev/owner-actions', {
      kind: 'withdraw',
      message: { ...ownerActionMessageStrings(bySessionKey), expiresAt: (2n ** 64n).toString() },
      signature: `0x${'1'.repeat(130)}`,
      actionId: ownerActionId(bySessionKey),
    });
    expect(tooFar).toMatchObject({
      status: 400,
      body: { ok: false, error: { code: 'invalid_arguments', message: expect.stringMatching(/expiresAt/) } },
    });
    expect((await one(`SELECT free_micro FROM exchange.accounts WHERE wallet = $1`, [wallet]))['free_micro']).toBe(
      String(usdc(799)),
    );
  });

  it('neither loses nor duplicates anything when the executor is killed (SIGKILL) mid-batch and restarted', async () => {
    await sim('price', { coin: 'BTC', price: 100000 });
    await until(readMid, (m) => m !== undefined && Math.abs(Number(m) - 1_000_000) <= 10);
    const free = BigInt(
      (await one(`SELECT free_micro FROM exchange.accounts WHERE wallet = $1`, [wallet]))['free_micro']!,
    );
    const payloads = await Promise.all(Array.from({ length: 1000 }, () => openIntent(10, 1000)));
    await acceptIntents(db, payloads);
    const ids = payloads.map((p) => p.intentId.toLowerCase());
    await intents.add('intents-due', {}, { jobId: INTENTS_DUE_JOB_ID, removeOnComplete: true, removeOnFail: true });
    const settled = () =>
      one<{ n: number }>(
        `SELECT count(*)::int AS n FROM exchange.intents WHERE id = ANY($1::varchar[]) AND status <> 'queued'`,
        [ids],
      );
    await until(settled, (r) => r.n >= 10);
    await stack.stopApp('trading-executor', true);
    const atKill = (await settled()).n;
    expect(atKill).toBeLessThan(1000);
    await stack.restartApp('trading-executor');
    await until(settled, (r) => r.n === 1000, 60_000);

    const statuses = await db.query(
      `SELECT status, reason, count(*)::int AS n FROM exchange.intents WHERE id = ANY($1::varchar[]) GROUP BY 1, 2`,
      [ids],
    );
    const executed = statuses.rows.find((r) => r.status === 'executed')?.n ?? 0;
    expect(executed).toBe(Number(free / usdc(10))); // 799 USDC buys 79 positions of 10 USDC; every other intent is refused, none lost
    expect(statuses.rows.filter((r) => r.status === 'refused').every((r) => r.reason === 'insufficient_balance')).toBe(
      true,
    );
    const positions = await one<{ n: number; margin: string }>(
      `SELECT count(*)::int AS n, coalesce(sum(margin_micro), 0) AS margin FROM exchange.positions WHERE open_intent_id = ANY($1::varchar[])`,
      [ids],
    );
    expect(positions.n).toBe(executed);
    const account = await one(`SELECT free_micro, locked_micro FROM exchange.accounts WHERE wallet = $1`, [wallet]);
    expect(account).toEqual({ free_micro: String(free - usdc(10) * BigInt(executed)), locked_micro: positions.margin });
    const ledger = await one(
      `SELECT count(*)::int AS n FROM (SELECT tx_id FROM exchange.ledger_entries GROUP BY tx_id HAVING sum(amount_micro) <> 0) t`,
    );
    expect(ledger['n']).toBe(0);
  });
});

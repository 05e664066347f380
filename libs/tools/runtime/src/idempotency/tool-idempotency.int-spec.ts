import { OPEN_POSITION, ToolErrorCode, type ToolSuccess, toolSuccess } from '@paper/contracts';
import { createTestDatabase, migrateDatabase, type TestDatabase } from '@paper/dev-stack';
import { createExchangeDataSource } from '@paper/exchange-data';
import type { DataSource } from 'typeorm';
import type { ToolContext } from '../context/tool-context';
import { isToolError, ToolError } from '../errors/tool.error';
import { ToolIdempotency } from './tool-idempotency';

const WALLET = `0x${'a'.repeat(40)}`;
const ctx = { family: 'me', scopes: [], callerId: 'c', wallet: WALLET } as ToolContext & { wallet: string };
const ARGS = { market: 'BTC', side: 'long', marginUsd: 100, leverage: 100 };
const FILLED = toolSuccess('Opened.', { status: 'filled', intentId: '0x1', position: null });

/** What a call answered: its envelope, or the code of the ToolError it threw. */
async function answer(run: Promise<ToolSuccess>): Promise<ToolSuccess | { code: string }> {
  try {
    return await run;
  } catch (error) {
    if (isToolError(error)) return { code: error.code };
    throw error;
  }
}

describe('client keys of the tool API writes (exchange.tool_idempotency_keys)', () => {
  let database: TestDatabase;
  let db: DataSource;
  let keys: ToolIdempotency;

  beforeAll(async () => {
    database = await createTestDatabase('paper_tool_keys');
    migrateDatabase(database.url, ['exchange']);
    db = createExchangeDataSource({ url: database.url, poolSize: 4, applicationName: 'tool-keys-int-test' });
    await db.initialize();
    keys = new ToolIdempotency(db);
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const call = (key: string, execute: (c: ToolContext) => Promise<ToolSuccess>, args: object = ARGS) =>
    answer(keys.run(OPEN_POSITION, { ...args, clientOrderId: key }, ctx, key, execute));
  const stateOf = async (key: string) =>
    (await db.query(`SELECT state FROM exchange.tool_idempotency_keys WHERE key = $1`, [key]))[0]?.state as
      string | undefined;

  it('runs once and answers the first answer again, marked as a replay', async () => {
    let runs = 0;
    const execute = async () => ((runs += 1), FILLED);
    expect(await call('once', execute)).toEqual(FILLED);
    expect(await call('once', execute)).toMatchObject({ replayed: true, data: FILLED.data });
    expect(runs).toBe(1);
    expect(await call('once', execute, { ...ARGS, leverage: 50 })).toEqual({
      code: ToolErrorCode.IdempotencyKeyMismatch,
    });
  });

  it('frees the key after a failure that happened before the exchange accepted anything', async () => {
    let runs = 0;
    const failing = async (): Promise<ToolSuccess> => {
      runs += 1;
      throw new ToolError(ToolErrorCode.ExchangeUnavailable, 'The exchange did not answer.');
    };
    expect(await call('free', failing)).toEqual({ code: ToolErrorCode.ExchangeUnavailable });
    expect(await stateOf('free')).toBeUndefined();
    expect(await call('free', async () => ((runs += 1), FILLED))).toEqual(FILLED);
    expect(runs).toBe(2);
  });

  it('keeps the key of a call that failed after the exchange accepted its intent: a retry never runs it again', async () => {
    let runs = 0;
    const acceptedThenFailed = async (c: ToolContext): Promise<ToolSuccess> => {
      runs += 1;
      c.writeProgress!.accepted = true;
      throw new Error('connection lost after the intent was accepted');
    };
    await expect(call('kept', acceptedThenFailed)).rejects.toThrow('connection lost');
    expect(await stateOf('kept')).toBe('running');
    // As if the first call's process had died a while ago: the key is never taken over for a write.
    await db.query(
      `UPDATE exchange.tool_idempotency_keys SET created_at = now() - interval '2 minutes' WHERE key = 'kept'`,
    );
    expect(await call('kept', async () => ((runs += 1), FILLED))).toEqual({
      code: ToolErrorCode.IdempotencyKeyInProgress,
    });
    expect(runs).toBe(1);
  });

  it('keeps a refusal and answers it again with the replay header', async () => {
    let runs = 0;
    const refusing = async (): Promise<ToolSuccess> => {
      runs += 1;
      throw new ToolError(ToolErrorCode.TradeRefused, 'Not enough balance.');
    };
    await expect(call('refused', refusing)).resolves.toEqual({ code: ToolErrorCode.TradeRefused });
    const replay = await keys
      .run(OPEN_POSITION, { ...ARGS, clientOrderId: 'refused' }, ctx, 'refused', refusing)
      .catch((error: unknown) => error);
    expect(replay).toMatchObject({
      code: ToolErrorCode.TradeRefused,
      message: 'Not enough balance.',
      headers: { 'Idempotent-Replayed': 'true' },
    });
    expect(runs).toBe(1);
  });

  it('scopes keys to the wallet', async () => {
    let runs = 0;
    const execute = async () => ((runs += 1), FILLED);
    await call('shared', execute);
    const other = { ...ctx, wallet: `0x${'b'.repeat(40)}` };
    await keys.run(OPEN_POSITION, { ...ARGS, clientOrderId: 'shared' }, other, 'shared', execute);
    expect(runs).toBe(2);
  });
});

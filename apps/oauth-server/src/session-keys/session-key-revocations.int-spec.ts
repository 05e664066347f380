import { SESSION_KEYS_QUEUE, type SessionKeyResult } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { SessionKeySecretEntity } from '@paper/oauth-data';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { oauthServerConfigSchema } from '../config/oauth-server.config';
import { createOauthTestDatabase, type OauthTestDatabase } from '../testing/oauth-test-database';
import { RevocationSweeper } from './revocation-sweeper';
import { SessionKeyQueueEvents } from './session-key-queue-events';
import { SessionKeyRevocations } from './session-key-revocations.service';

const ADMIN_URL = process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

describe('session key revocation recorded in PostgreSQL, confirmed by the exchange (PostgreSQL + Redis)', () => {
  let database: OauthTestDatabase;
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const config = oauthServerConfigSchema.parse({ REDIS_PREFIX: prefix, SESSION_KEY_REVOCATION_WAIT_MS: '800' });
  const registries: QueueRegistry[] = [];
  const revokedOnExchange = new Set<string>();
  let revocations: SessionKeyRevocations;
  let events: SessionKeyQueueEvents;
  let sweeper: RevocationSweeper;
  let redis: Redis;

  const registry = () => {
    const r = new QueueRegistry(config);
    registries.push(r);
    return r;
  };
  /** Stands in for trading-executor: revokes (idempotently) and answers like it. */
  const startExchange = () =>
    registry().worker(SESSION_KEYS_QUEUE, {
      'register-session-key': async () => undefined,
      'revoke-session-key': async (data): Promise<SessionKeyResult> => {
        revokedOnExchange.add(data.sessionKey);
        return { ...data, status: 'revoked', reason: null, message: 'revoked' };
      },
    });

  async function storeKey(grantId: string): Promise<{ wallet: string; address: string }> {
    const key = { wallet: hex(20), address: hex(20) };
    await database.dataSource.getRepository(SessionKeySecretEntity).insert({
      ...key,
      encryptedPrivateKey: 'v1.sealed',
      clientId: 'client-1',
      grantId,
      guardrails: {
        maxMarginPerTradeUsd: null,
        maxLeverage: null,
        maxDailyNotionalUsd: null,
        maxOpenPositions: null,
        allowedMarkets: null,
        requireConfirmation: false,
      },
      label: null,
      expiresAt: new Date(Date.now() + 86_400_000),
      revokedAt: null,
    });
    return key;
  }

  const pendingRow = async (address: string) =>
    (
      await database.dataSource.query(
        `SELECT s.revoked_at, p.confirmed_at FROM oauth.session_key_secrets s
           LEFT JOIN oauth.pending_revocations p ON p.session_key = s.address WHERE s.address = $1`,
        [address],
      )
    )[0] as { revoked_at: Date | null; confirmed_at: Date | null | undefined };

  beforeAll(async () => {
    database = await createOauthTestDatabase(ADMIN_URL, 'oauth_revocations');
    const producer = registry();
    events = new SessionKeyQueueEvents(config);
    revocations = new SessionKeyRevocations(config, database.dataSource, producer, events);
    sweeper = new RevocationSweeper(database.dataSource, producer, revocations);
    redis = new Redis(config.REDIS_URL);
  });

  afterAll(async () => {
    redis?.disconnect();
    await events?.onApplicationShutdown();
    for (const r of registries) await r.onApplicationShutdown();
    await database?.drop();
  });

  it('answers "revoked" only once the exchange confirmed it, and records the confirmation', async () => {
    const exchange = startExchange();
    try {
      const key = await storeKey('grant-a');
      await expect(revocations.revokeKeyAndConfirm(key.wallet, key.address)).resolves.toBe('revoked');
      expect(revokedOnExchange.has(key.address)).toBe(true);
      const row = await pendingRow(key.address);
      expect(row.revoked_at).toBeInstanceOf(Date);
      expect(row.confirmed_at).toBeInstanceOf(Date);
      // Another wallet cannot revoke it, and a key revoked and confirmed is not found again.
      await expect(revocations.revokeKeyAndConfirm(hex(20), key.address)).resolves.toBe('not-found');
      await expect(revocations.revokeKeyAndConfirm(key.wallet, key.address)).resolves.toBe('not-found');
    } finally {
      await exchange.close();
    }
  });

  it('answers "pending" past the wait, and the sweeper completes it after Redis lost the job', async () => {
    const key = await storeKey('grant-b');
    const started = Date.now();
    // Nobody consumes the queue: the wait ends at SESSION_KEY_REVOCATION_WAIT_MS.
    await expect(revocations.revokeKeyAndConfirm(key.wallet, key.address)).resolves.toBe('pending');
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
    expect(await pendingRow(key.address)).toMatchObject({ confirmed_at: null });
    // The key is revoked here already: revoking its grant finds nothing more to revoke.
    await expect(revocations.revokeForGrant('grant-b')).resolves.toEqual([]);

    // Redis loses everything between the owner's click and the exchange.
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);

    const exchange = startExchange();
    try {
      const deadline = Date.now() + 15_000;
      while (!(await pendingRow(key.address)).confirmed_at && Date.now() < deadline) {
        await sweeper.sweep();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await pendingRow(key.address)).confirmed_at).toBeInstanceOf(Date);
      expect(revokedOnExchange.has(key.address)).toBe(true);
    } finally {
      await exchange.close();
    }
  });

  it('a grant revoked by the provider (refresh token reuse, /revoke) is recorded, woken and confirmed by the sweeper', async () => {
    const exchange = startExchange();
    try {
      const a = await storeKey('grant-c');
      await expect(revocations.revokeForGrant('grant-c')).resolves.toEqual([a.address]);
      const deadline = Date.now() + 15_000;
      while (!(await pendingRow(a.address)).confirmed_at && Date.now() < deadline) {
        await sweeper.sweep();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await pendingRow(a.address)).confirmed_at).toBeInstanceOf(Date);
      await expect(revocations.confirm({ wallet: a.wallet, grantId: 'grant-c' })).resolves.toBe('not-found');
    } finally {
      await exchange.close();
    }
  });
});

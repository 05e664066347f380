import { SESSION_KEYS_QUEUE, type SessionKeyResult } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { randomBytes } from 'node:crypto';
import { oauthServerConfigSchema } from '../config/oauth-server.config';
import { createOauthTestDatabase, type OauthTestDatabase } from '../testing/oauth-test-database';
import { SessionKeyQueueEvents } from './session-key-queue-events';
import { type NewSessionKey, SessionKeyRegistrationError, SessionKeysService } from './session-keys.service';

const ADMIN_URL = process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const guardrails = {
  maxMarginPerTradeUsd: '100',
  maxLeverage: 200,
  maxDailyNotionalUsd: '50000',
  maxOpenPositions: 5,
  allowedMarkets: ['BTC' as const],
  requireConfirmation: true,
};
const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

function newKey(grantId: string): NewSessionKey {
  return {
    wallet: hex(20),
    address: hex(20),
    encryptedPrivateKey: 'v1.sealed',
    guardrails,
    expiresAt: new Date(Date.now() + 7 * 86_400_000),
    approvalSignature: hex(65),
    clientId: 'client-1',
    grantId,
    label: 'Agent',
  };
}

describe('session key registration through the exchange queue (PostgreSQL + Redis)', () => {
  let database: OauthTestDatabase;
  let registry: QueueRegistry;
  let exchange: QueueRegistry;
  let service: SessionKeysService;
  let events: SessionKeyQueueEvents;
  const jobs: { name: string; data: Record<string, unknown> }[] = [];
  let answer: (data: Record<string, unknown>) => SessionKeyResult | undefined;

  beforeAll(async () => {
    database = await createOauthTestDatabase(ADMIN_URL, 'oauth_session_keys');
    const config = oauthServerConfigSchema.parse({
      REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
      SESSION_KEY_REGISTRATION_TIMEOUT_MS: '1500',
    });
    registry = new QueueRegistry(config);
    exchange = new QueueRegistry(config);
    // Stands in for trading-executor, the consumer of the queue contract.
    exchange.worker(SESSION_KEYS_QUEUE, {
      'register-session-key': async (data) => {
        jobs.push({ name: 'register-session-key', data });
        return answer(data);
      },
      'revoke-session-key': async (data) => {
        jobs.push({ name: 'revoke-session-key', data });
        return answer(data);
      },
    });
    events = new SessionKeyQueueEvents(config);
    service = new SessionKeysService(config, database.dataSource, registry, events);
  });

  afterAll(async () => {
    await events?.onApplicationShutdown();
    await exchange?.onApplicationShutdown();
    await registry?.onApplicationShutdown();
    await database?.drop();
  });

  it('stores the secret once the exchange confirms the registration', async () => {
    answer = (d) => ({
      status: 'registered',
      wallet: String(d['wallet']),
      sessionKey: String(d['sessionKey']),
      reason: null,
      message: 'ok',
    });
    const key = newKey('grant-a');
    await service.register(key);
    expect(jobs.at(-1)).toMatchObject({
      name: 'register-session-key',
      data: { wallet: key.wallet, sessionKey: key.address, guardrails, label: 'Agent' },
    });
    expect(jobs.at(-1)!.data['expiresAt']).toBe(String(Math.floor(key.expiresAt.getTime() / 1000)));
    await expect(service.activeAddressForGrant('grant-a')).resolves.toBe(key.address);
  });

  it('stores nothing when the exchange refuses the key, and says why', async () => {
    answer = (d) => ({
      status: 'refused',
      wallet: String(d['wallet']),
      sessionKey: String(d['sessionKey']),
      reason: 'bad_approval_signature',
      message: 'The approval is not signed by the wallet owner.',
    });
    const key = newKey('grant-b');
    await expect(service.register(key)).rejects.toThrow(
      new SessionKeyRegistrationError('The approval is not signed by the wallet owner.'),
    );
    await expect(service.activeAddressForGrant('grant-b')).resolves.toBeUndefined();
  });

  it('reports a registration whose job failed', async () => {
    answer = () => {
      throw new Error('executor crashed');
    };
    const key = newKey('grant-c');
    await expect(service.register(key)).rejects.toBeInstanceOf(SessionKeyRegistrationError);
    await expect(service.activeAddressForGrant('grant-c')).resolves.toBeUndefined();
  });

  it('gives up after the configured wait when nobody consumes the queue', async () => {
    const lonelyConfig = oauthServerConfigSchema.parse({
      REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
      SESSION_KEY_REGISTRATION_TIMEOUT_MS: '700',
    });
    const lonelyRegistry = new QueueRegistry(lonelyConfig);
    const lonelyEvents = new SessionKeyQueueEvents(lonelyConfig);
    const lonely = new SessionKeysService(lonelyConfig, database.dataSource, lonelyRegistry, lonelyEvents);
    try {
      const started = Date.now();
      await expect(lonely.register(newKey('grant-e'))).rejects.toThrow(new SessionKeyRegistrationError('timeout'));
      expect(Date.now() - started).toBeGreaterThanOrEqual(650);
      await expect(lonely.activeAddressForGrant('grant-e')).resolves.toBeUndefined();
    } finally {
      await lonelyEvents.onApplicationShutdown();
      await lonelyRegistry.onApplicationShutdown();
    }
  });
});

import type { DataSource } from 'typeorm';
import { findActiveSessionKeySecret, SessionKeySecretEntity } from '@paper/oauth-data';
import { createOauthTestDatabase, type OauthTestDatabase } from '../testing/oauth-test-database';

const guardrails = {
  maxMarginPerTradeUsd: '100',
  maxLeverage: 200,
  maxDailyNotionalUsd: null,
  maxOpenPositions: 5,
  allowedMarkets: null,
  requireConfirmation: true,
};

const ADMIN_URL = process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('findActiveSessionKeySecret (PostgreSQL)', () => {
  let database: OauthTestDatabase;
  let dataSource: DataSource;
  const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

  beforeAll(async () => {
    database = await createOauthTestDatabase(ADMIN_URL, 'oauth_secrets');
    dataSource = database.dataSource;
    const later = new Date(Date.now() + 86_400_000);
    const rows = [
      { address: address(1), expiresAt: later, revokedAt: null },
      { address: address(2), expiresAt: later, revokedAt: new Date() },
      { address: address(3), expiresAt: new Date(Date.now() - 1000), revokedAt: null },
    ];
    for (const row of rows) {
      await dataSource.getRepository(SessionKeySecretEntity).insert({
        ...row,
        wallet: address(99),
        encryptedPrivateKey: 'v1.sealed',
        clientId: 'client',
        grantId: `grant-${row.address}`,
        guardrails,
        label: 'Agent',
      });
    }
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('returns an approved, unexpired, unrevoked key (address in any case)', async () => {
    const found = await findActiveSessionKeySecret(dataSource, address(1).toUpperCase().replace('0X', '0x'));
    expect(found).toMatchObject({
      address: address(1),
      wallet: address(99),
      encryptedPrivateKey: 'v1.sealed',
      guardrails,
    });
  });

  it('returns null for a revoked, expired or unknown key', async () => {
    await expect(findActiveSessionKeySecret(dataSource, address(2))).resolves.toBeNull();
    await expect(findActiveSessionKeySecret(dataSource, address(3))).resolves.toBeNull();
    await expect(findActiveSessionKeySecret(dataSource, address(4))).resolves.toBeNull();
  });
});

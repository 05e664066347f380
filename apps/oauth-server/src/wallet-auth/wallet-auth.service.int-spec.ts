import type { DataSource } from 'typeorm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { oauthServerConfigSchema } from '../config/oauth-server.config';
import { WalletAuthService } from './wallet-auth.service';
import { createOauthTestDatabase, type OauthTestDatabase } from '../testing/oauth-test-database';

const ADMIN_URL = process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('wallet sign-in (PostgreSQL)', () => {
  let database: OauthTestDatabase;
  let dataSource: DataSource;
  let auth: WalletAuthService;
  const owner = privateKeyToAccount(generatePrivateKey());
  const wallet = owner.address.toLowerCase();

  beforeAll(async () => {
    database = await createOauthTestDatabase(ADMIN_URL, 'oauth_wallet_auth');
    dataSource = database.dataSource;
    auth = new WalletAuthService(
      oauthServerConfigSchema.parse({ PUBLIC_BASE_URL: 'https://perps.example' }),
      dataSource,
    );
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('issues a sign-in message naming the site and the checksummed wallet', async () => {
    const { message } = await auth.issueChallenge(wallet, null);
    expect(message).toContain('perps.example wants you to sign in with your Ethereum account:');
    expect(message).toContain(owner.address);
    expect(message).toMatch(/Nonce: [0-9a-f]{24}/);
    expect(message).toContain('moves no funds');
  });

  it('proves the wallet with its signature, once', async () => {
    const { challengeId, message } = await auth.issueChallenge(wallet, 'uid-1');
    const signature = await owner.signMessage({ message });
    await expect(auth.verifyChallenge(challengeId, signature, 'uid-1')).resolves.toBe(wallet);
    await expect(auth.verifyChallenge(challengeId, signature, 'uid-1')).rejects.toMatchObject({
      code: 'challenge_expired',
      status: 400,
    });
  });

  it('refuses a signature by another key, a challenge of another interaction, and an expired one', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const a = await auth.issueChallenge(wallet, null);
    await expect(
      auth.verifyChallenge(a.challengeId, await stranger.signMessage({ message: a.message }), null),
    ).rejects.toMatchObject({ code: 'invalid_signature' });

    const b = await auth.issueChallenge(wallet, 'uid-2');
    await expect(
      auth.verifyChallenge(b.challengeId, await owner.signMessage({ message: b.message }), 'uid-3'),
    ).rejects.toMatchObject({ code: 'challenge_expired' });

    const c = await auth.issueChallenge(wallet, null);
    await dataSource.query(
      `UPDATE oauth.wallet_challenges SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [c.challengeId],
    );
    await expect(
      auth.verifyChallenge(c.challengeId, await owner.signMessage({ message: c.message }), null),
    ).rejects.toMatchObject({ code: 'challenge_expired' });
  });

  it('keeps signed-in sessions by token hash until they expire or end', async () => {
    const token = await auth.createSession(wallet);
    await expect(auth.sessionWallet(token)).resolves.toBe(wallet);
    await expect(auth.sessionWallet(`${token}x`)).resolves.toBeUndefined();
    const stored = (await dataSource.query(`SELECT id FROM oauth.wallet_sessions`)) as { id: string }[];
    expect(stored.some((r) => r.id === token)).toBe(false);
    expect(auth.formToken(token)).not.toBe(auth.formToken(await auth.createSession(wallet)));
    await auth.endSession(token);
    await expect(auth.sessionWallet(token)).resolves.toBeUndefined();
  });
});

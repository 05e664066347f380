import { accessTokenClaims } from './provider-configuration';

describe('access token claims', () => {
  const keys: Record<string, string> = { 'grant-trading': '0x' + 'ab'.repeat(20) };
  const sessionKeyForGrant = async (grantId: string) => keys[grantId];
  const wallet = '0x' + '11'.repeat(20);

  it('names the connection (grant_id) and its session key', async () => {
    await expect(
      accessTokenClaims({ kind: 'AccessToken', accountId: wallet, grantId: 'grant-trading' }, sessionKeyForGrant),
    ).resolves.toEqual({ wallet, grant_id: 'grant-trading', session_key: keys['grant-trading'] });
  });

  it('names the connection of a read-only token, which has no session key', async () => {
    await expect(
      accessTokenClaims({ kind: 'AccessToken', accountId: wallet, grantId: 'grant-read' }, sessionKeyForGrant),
    ).resolves.toEqual({ wallet, grant_id: 'grant-read' });
  });

  it('adds nothing to other tokens', async () => {
    await expect(
      accessTokenClaims({ kind: 'ClientCredentials', accountId: wallet }, sessionKeyForGrant),
    ).resolves.toBeUndefined();
  });
});

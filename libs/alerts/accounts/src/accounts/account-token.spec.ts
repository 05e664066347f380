import { accountIdOfToken, createAccountToken, hashToken, tokenMatches } from './account-token';

describe('account tokens', () => {
  it('embeds the account id and stores only the SHA-256', () => {
    const { accountId, token, tokenHash } = createAccountToken();
    expect(token).toMatch(/^alrt_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(accountIdOfToken(token)).toBe(accountId);
    expect(tokenHash).toBe(hashToken(token));
    expect(tokenHash).not.toContain(token.slice(-43));
  });

  it('matches only the exact token', () => {
    const { token, tokenHash } = createAccountToken();
    expect(tokenMatches(token, tokenHash)).toBe(true);
    expect(tokenMatches(`${token}x`, tokenHash)).toBe(false);
    expect(
      tokenMatches(
        token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        tokenHash,
      ),
    ).toBe(false);
    expect(tokenMatches(token, 'not-a-hash')).toBe(false);
  });

  it('reads no account id from malformed tokens', () => {
    for (const bad of [
      '',
      'alrt_',
      'alrt_xyz_abc',
      `alrt_${'0'.repeat(32)}_short`,
      `bearer_${'0'.repeat(32)}_${'a'.repeat(43)}`,
    ]) {
      expect(accountIdOfToken(bad)).toBeUndefined();
    }
  });
});

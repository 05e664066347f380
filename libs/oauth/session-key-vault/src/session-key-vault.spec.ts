import { SessionKeyVault } from './session-key-vault';

const KEY = 'a'.repeat(64);

describe('SessionKeyVault', () => {
  it('round-trips and never stores the plaintext', () => {
    const vault = new SessionKeyVault(KEY);
    const sealed = vault.encrypt('0xsecret');
    expect(sealed).not.toContain('secret');
    expect(vault.decrypt(sealed)).toBe('0xsecret');
  });

  it('detects tampering', () => {
    const vault = new SessionKeyVault(KEY);
    const parts = vault.encrypt('0xsecret').split('.');
    parts[4] = Buffer.from('0xsecreT').toString('base64url');
    expect(() => vault.decrypt(parts.join('.'))).toThrow();
  });

  it('decrypts with a previous key after rotation', () => {
    const sealed = new SessionKeyVault(KEY).encrypt('0xold');
    const rotated = new SessionKeyVault('b'.repeat(64), [KEY]);
    expect(rotated.decrypt(sealed)).toBe('0xold');
    expect(() => new SessionKeyVault('b'.repeat(64)).decrypt(sealed)).toThrow(/not configured/);
  });

  it('refuses short keys', () => {
    expect(() => new SessionKeyVault('short')).toThrow(/32/);
  });
});

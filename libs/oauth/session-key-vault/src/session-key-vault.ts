import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts session-key private keys at rest (AES-256-GCM). The key comes from configuration
 * (SESSION_KEY_ENCRYPTION_KEY: 32 bytes as base64 or hex, or any passphrase of 32+ characters, hashed).
 * Ciphertext format: `v1.<key id>.<iv b64url>.<tag b64url>.<data b64url>`; the key id lets operators
 * rotate: configure the new key first and keep the old one in SESSION_KEY_ENCRYPTION_KEYS_OLD.
 */
export class SessionKeyVault {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  constructor(current: string, previous: readonly string[] = []) {
    const key = deriveKey(current);
    this.currentId = keyId(key);
    this.keys.set(this.currentId, key);
    for (const old of previous) {
      const k = deriveKey(old);
      this.keys.set(keyId(k), k);
    }
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      this.currentId,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
  }

  decrypt(ciphertext: string): string {
    const [version, id, iv, tag, data] = ciphertext.split('.');
    if (version !== 'v1' || !id || !iv || !tag || data === undefined) throw new Error('unrecognised ciphertext');
    const key = this.keys.get(id);
    if (!key) throw new Error('ciphertext was sealed with a key that is not configured');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

function deriveKey(material: string): Buffer {
  if (/^[0-9a-f]{64}$/i.test(material)) return Buffer.from(material, 'hex');
  const b64 = Buffer.from(material, 'base64');
  if (b64.length === 32 && /^[A-Za-z0-9+/_-]+=*$/.test(material)) return b64;
  if (material.length < 32)
    throw new Error(
      'SESSION_KEY_ENCRYPTION_KEY must be 32 bytes (hex/base64) or a passphrase of at least 32 characters',
    );
  return createHash('sha256').update(material).digest();
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Account tokens: `alrt_<account id, 32 hex>_<43 base64url chars of randomness>`. The account id lets
 * the service find the account; only the SHA-256 of the whole token is stored and compared in constant
 * time. Tokens do not expire; they stop working when the account is deleted.
 */
const TOKEN = /^alrt_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface NewAccountToken {
  accountId: string;
  token: string;
  tokenHash: string;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new token for a new account, or a replacement token for an existing one. */
export function createAccountToken(accountId: string = randomUUID()): NewAccountToken {
  const token = `alrt_${accountId.replace(/-/g, '')}_${randomBytes(32).toString('base64url')}`;
  return { accountId, token, tokenHash: hashToken(token) };
}

/** The account id a well-formed token names, or undefined. */
export function accountIdOfToken(token: string): string | undefined {
  const match = TOKEN.exec(token);
  if (!match) return undefined;
  const hex = match[1]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatches(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-alerts-signature';
export const EVENT_ID_HEADER = 'x-service-alerts-event-id';
/** Receivers should refuse signatures older (or further in the future) than this. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new webhook signing secret (`whsec_` + 32 random bytes, base64url). */
export function createSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The `x-service-alerts-signature` value for a raw body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signWebhook(secret: string, body: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  return `t=${nowSeconds},v1=${hmacHex(secret, nowSeconds, body)}`;
}

export type SignatureCheck =
  { valid: true; timestamp: number } | { valid: false; reason: 'malformed' | 'expired' | 'mismatch' };

/**
 * Verifies a signature header against the raw body (what a receiver does). Accepts several `v1`
 * entries (secret rotation); compares in constant time; refuses timestamps outside the tolerance.
 */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | undefined,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): SignatureCheck {
  if (!header) return { valid: false, reason: 'malformed' };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return { valid: false, reason: 'malformed' };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS))
    return { valid: false, reason: 'expired' };
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  const match = signatures.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
  return match ? { valid: true, timestamp } : { valid: false, reason: 'mismatch' };
}

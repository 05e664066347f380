import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Our Stripe-style signature: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`, keyed with the secret string. */
export const SIGNATURE_HEADER = 'x-service-alerts-signature';
export const EVENT_ID_HEADER = 'x-service-alerts-event-id';
/** Standard Webhooks headers (https://www.standardwebhooks.com). */
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';
/** Receivers should refuse signatures older (or further in the future) than this. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';

/**
 * A new webhook signing secret: `whsec_` + 32 random bytes in standard base64, the form Standard
 * Webhooks libraries decode. (Secrets issued before used base64url; they keep their key bytes.)
 */
export function createSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks key bytes of a secret: the base64 after `whsec_`. Older base64url secrets
 * decode to the same bytes they were generated from (Node's decoder takes both alphabets).
 */
export function signingKeyBytes(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The `x-service-alerts-signature` value for a raw body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`,
 * one `v1` per secret (two while a rotated secret is still valid). Stripe's verifiers accept it.
 */
export function signWebhook(
  secrets: string | readonly string[],
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return [`t=${nowSeconds}`, ...list.map((s) => `v1=${hmacHex(s, nowSeconds, body)}`)].join(',');
}

/**
 * The Standard Webhooks headers: `webhook-id` (the message id, the same on every retry),
 * `webhook-timestamp` and `webhook-signature` = space-separated `v1,<base64 HMAC-SHA256 of "id.t.body">`,
 * one per secret.
 */
export function standardWebhookHeaders(
  secrets: readonly string[],
  messageId: string,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const signed = `${messageId}.${nowSeconds}.${body}`;
  const signatures = secrets.map(
    (s) => `v1,${createHmac('sha256', signingKeyBytes(s)).update(signed).digest('base64')}`,
  );
  return {
    [STANDARD_ID_HEADER]: messageId,
    [STANDARD_TIMESTAMP_HEADER]: String(nowSeconds),
    [STANDARD_SIGNATURE_HEADER]: signatures.join(' '),
  };
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

/** How long a replaced secret keeps signing after `rotate-secret` (both sign meanwhile). */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * The secrets that sign a channel's deliveries, current first: the replaced one too while its overlap
 * lasts (`previousSecretExpiresAt` omitted = already known to be within it).
 */
export function activeSigningSecrets(
  channel: { secret: string | null; previousSecret: string | null; previousSecretExpiresAt?: Date | null },
  now: Date = new Date(),
): string[] {
  const secrets = channel.secret ? [channel.secret] : [];
  const overlapping =
    channel.previousSecretExpiresAt === undefined ||
    (channel.previousSecretExpiresAt !== null && channel.previousSecretExpiresAt > now);
  if (channel.previousSecret && overlapping) secrets.push(channel.previousSecret);
  return secrets;
}

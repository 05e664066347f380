/**
 * Result of one delivery attempt, whatever the channel kind:
 * - delivered: the receiver accepted it;
 * - retry: temporary (408, 429, 5xx, network); `retryAfterMs` when the receiver said how long to wait;
 * - failed: permanent for this delivery (other 4xx, 3xx, refused target): goes to the dead letters;
 * - disable: the receiver is gone for good (410, unknown Discord webhook, bot blocked): disable the channel.
 */
export type DeliveryOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; reason: string; status?: number; retryAfterMs?: number }
  | { kind: 'failed'; reason: string; status?: number }
  | { kind: 'disable'; reason: string; status?: number };

/** `Retry-After` as milliseconds (delta seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined | null, nowMs = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Math.ceil(Number(text.trim()) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** Short description of a thrown network error for `last_error`. */
export function networkReason(error: unknown): string {
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? err.code;
  const message = err.cause?.message ?? err.message ?? 'unknown error';
  return `network error: ${code ? `${code} ` : ''}${message}`.slice(0, 300);
}

/** Keeps the start of a receiver's answer for `last_error` (bounded). */
export function snippet(body: string, max = 200): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

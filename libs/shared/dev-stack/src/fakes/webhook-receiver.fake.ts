import { createHmac, timingSafeEqual } from 'node:crypto';
import { type FakeServer, json, startFakeServer } from './http-fake';
import { type VerifierVerdicts, verifyWithThirdParties } from './webhook-verifiers';

export interface ReceivedWebhook {
  eventId: string | undefined;
  headerEventId: string | undefined;
  signature: string | undefined;
  /** The Standard Webhooks `webhook-id` header. */
  webhookId: string | undefined;
  /**
   * Whether the delivery verified: our own check of `x-service-alerts-signature` (HMAC-SHA256 of
   * `<t>.<raw body>`, timestamp within the tolerance) and every third-party verifier in `verifiers`.
   */
  valid: boolean;
  /** The independent verifiers' verdicts (Standard Webhooks, Svix, Stripe); absent without a secret. */
  verifiers?: VerifierVerdicts;
  reason?: 'malformed' | 'expired' | 'mismatch' | 'no_secret' | 'third_party';
  /** Answer given; 0 when the sender hung up before the answer. */
  status: number;
  body: Record<string, unknown> | undefined;
  rawBody: string;
  /** The request headers (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  at: number;
}

export interface WebhookReceiver extends FakeServer {
  received: ReceivedWebhook[];
  /** Signing secret of the channel (returned once by POST /api/channels). */
  setSecret(secret: string): void;
  /** Answer the next `times` requests with `status` (and an optional Retry-After in seconds). */
  failNext(times: number, status?: number, retryAfterSeconds?: number): void;
  /** Answer every request with `status` until told otherwise (`null` = accept again). */
  failAlways(status: number | null): void;
  /** Answer every request with `302 Location: <url>` until told otherwise (`null`). */
  redirectTo(url: string | null): void;
  /** Accepted deliveries (2xx) with a valid signature. */
  accepted(): ReceivedWebhook[];
  /** While on, requests are held open without an answer (`held` counts them); turning it off answers them. */
  hold(on: boolean): void;
  readonly held: number;
}

/**
 * Verifies `t=<unix seconds>,v1=<hex>[,v1=<hex>]` exactly as the alerts documentation tells receivers to: v1 is
 * the hex HMAC-SHA256 of `<t>.<raw body>` keyed with the signing secret (any one `v1` may match); timestamps more than
 * `toleranceSeconds` away from now are refused.
 */
export function verifySignature(
  secret: string,
  rawBody: string,
  header: string | undefined,
  toleranceSeconds = 300,
): { valid: boolean; reason?: ReceivedWebhook['reason'] } {
  if (!header) return { valid: false, reason: 'malformed' };
  const parts = header.split(',').map((p) => p.trim().split('=', 2) as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const v1s = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? '')).map(([, v]) => v);
  if (!Number.isInteger(t) || v1s.length === 0) return { valid: false, reason: 'malformed' };
  if (Math.abs(Math.floor(Date.now() / 1000) - t) > toleranceSeconds) return { valid: false, reason: 'expired' };
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return v1s.some((v1) => timingSafeEqual(expected, Buffer.from(v1, 'hex')))
    ? { valid: true }
    : { valid: false, reason: 'mismatch' };
}

/**
 * Verifies the Standard Webhooks headers with our own HMAC (no library): `webhook-signature` holds a
 * `v1,<base64 HMAC-SHA256 of "id.t.body">` made with the base64-decoded secret after `whsec_`.
 */
export function verifyStandardSignature(
  secret: string,
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
  toleranceSeconds = 300,
): boolean {
  const [id, t, signatures] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => headers[h]);
  if (typeof id !== 'string' || typeof t !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(t)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${t}.${rawBody}`).digest();
  return signatures.split(' ').some((s) => {
    const given = Buffer.from(s.slice(3), 'base64');
    return s.startsWith('v1,') && given.length === 32 && timingSafeEqual(expected, given);
  });
}

/**
 * A signed-webhook receiver: verifies every delivery, records it, and can be told to fail. By default the
 * independent verifiers (standardwebhooks, svix, stripe) check each delivery too; `verifiers: 'own'` checks
 * both signatures with our own HMAC code only (cheap: for benchmarks).
 */
export async function startWebhookReceiver(
  options: { toleranceSeconds?: number; verifiers?: 'third-party' | 'own' } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let secret: string | undefined;
  let failures: { times: number; status: number; retryAfter?: number } = { times: 0, status: 500 };
  let always: number | null = null;
  let redirect: string | null = null;
  let gate: { promise: Promise<void>; open: () => void } | undefined;
  let held = 0;
  const server = await startFakeServer(async (req, res) => {
    let gone = false;
    res.on('close', () => {
      gone = !res.writableEnded;
    });
    if (gate) {
      held += 1;
      await gate.promise;
    }
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(req.rawBody) as Record<string, unknown>;
    } catch {
      body = undefined;
    }
    const signature = req.headers['x-service-alerts-signature'] as string | undefined;
    const own = secret
      ? verifySignature(secret, req.rawBody, signature, options.toleranceSeconds)
      : { valid: false, reason: 'no_secret' as const };
    const verifiers = secret
      ? verifyWithThirdParties(secret, { rawBody: req.rawBody, headers: req.headers })
      : undefined;
    const check: { valid: boolean; reason?: ReceivedWebhook['reason'] } =
      own.valid && verifiers && !Object.values(verifiers).every(Boolean)
        ? { valid: false, reason: 'third_party' }
        : own;
    let status = check.valid ? 200 : 400;
    const headers: Record<string, string> = {};
    if (check.valid && redirect !== null) {
      status = 302;
      headers['location'] = redirect;
    } else if (check.valid && always !== null) status = always;
    else if (check.valid && failures.times > 0) {
      failures.times -= 1;
      status = failures.status;
      if (failures.retryAfter !== undefined) headers['retry-after'] = String(failures.retryAfter);
    }
    if (gone) status = 0;
    received.push({
      eventId: typeof body?.['id'] === 'string' ? (body['id'] as string) : undefined,
      headerEventId: req.headers['x-service-alerts-event-id'] as string | undefined,
      signature,
      webhookId: req.headers['webhook-id'] as string | undefined,
      valid: check.valid,
      verifiers,
      reason: check.reason,
      status,
      body,
      rawBody: req.rawBody,
      headers: req.headers,
      at: Date.now(),
    });
    if (!gone) json(res, status, status < 300 ? { received: true } : { error: 'not now' }, headers);
  });
  return {
    ...server,
    received,
    setSecret: (s) => {
      secret = s;
    },
    failNext: (times, status = 500, retryAfter) => {
      failures = { times, status, retryAfter };
    },
    redirectTo: (url) => {
      redirect = url;
    },
    failAlways: (status) => {
      always = status;
    },
    accepted: () => received.filter((r) => r.valid && r.status >= 200 && r.status < 300),
    hold: (on) => {
      if (on && !gate) {
        let open!: () => void;
        const promise = new Promise<void>((resolve) => (open = resolve));
        gate = { promise, open };
      } else if (!on && gate) {
        gate.open();
        gate = undefined;
      }
    },
    get held() {
      return held;
    },
  };
}

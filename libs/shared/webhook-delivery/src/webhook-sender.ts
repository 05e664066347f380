import { type DeliveryOutcome, networkReason, parseRetryAfter, snippet } from './delivery-outcome';
import { pinnedRequest } from './pinned-request';
import { checkTarget, type LookupAll, TargetNotAllowedError } from './ssrf-guard';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhook, standardWebhookHeaders } from './webhook-signature';
import type { WebhookEvent } from './webhook-event';

export interface WebhookSenderOptions {
  allowHosts?: readonly string[];
  timeoutMs?: number;
  lookup?: LookupAll;
  userAgent?: string;
}

/** Largest body a webhook delivery carries (Standard Webhooks receivers may refuse more). */
export const WEBHOOK_MAX_BODY_BYTES = 256 * 1024;

/** A webhook endpoint: its URL and the secrets that sign (the current one first; two during a rotation). */
export interface WebhookTarget {
  url: string;
  secrets: readonly string[];
}

/**
 * Sends one signed webhook delivery with both signatures (ours and Standard Webhooks; `webhook-id` is
 * the event id, the same on every retry). The URL is checked (and its address pinned) on every attempt;
 * the signatures are computed fresh with the current time; redirects are not followed.
 */
export async function sendWebhook(
  target: WebhookTarget,
  event: WebhookEvent<unknown>,
  options: WebhookSenderOptions = {},
): Promise<DeliveryOutcome> {
  let checked;
  try {
    checked = await checkTarget(target.url, { allowHosts: options.allowHosts, lookup: options.lookup });
  } catch (error) {
    if (error instanceof TargetNotAllowedError)
      return { kind: 'failed', reason: `target not allowed: ${error.message}` };
    throw error;
  }
  const body = JSON.stringify(event);
  if (Buffer.byteLength(body) > WEBHOOK_MAX_BODY_BYTES)
    return { kind: 'failed', reason: `body larger than ${WEBHOOK_MAX_BODY_BYTES} bytes` };
  const nowSeconds = Math.floor(Date.now() / 1000);
  let response;
  try {
    response = await pinnedRequest(checked, {
      method: 'POST',
      body,
      timeoutMs: options.timeoutMs ?? 10_000,
      headers: {
        'content-type': 'application/json',
        'user-agent': options.userAgent ?? 'paper-alerts-webhooks/1',
        [SIGNATURE_HEADER]: signWebhook(target.secrets, body, nowSeconds),
        [EVENT_ID_HEADER]: event.id,
        ...standardWebhookHeaders(target.secrets, event.id, body, nowSeconds),
      },
    });
  } catch (error) {
    return { kind: 'retry', reason: networkReason(error) };
  }
  return classifyWebhookResponse(response.status, response.headers['retry-after'], response.body);
}

/** Maps a receiver's HTTP status to an outcome (see integrations: only 2xx is success). */
export function classifyWebhookResponse(
  status: number,
  retryAfter: string | string[] | undefined,
  body: string,
): DeliveryOutcome {
  const said = body ? `: ${snippet(body)}` : '';
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status >= 300 && status < 400)
    return { kind: 'failed', status, reason: `receiver answered ${status} (redirects are not followed)` };
  if (status === 410) return { kind: 'disable', status, reason: `receiver answered 410 Gone${said}` };
  if (status === 408 || status === 429 || status >= 500) {
    return {
      kind: 'retry',
      status,
      reason: `receiver answered ${status}${said}`,
      retryAfterMs: parseRetryAfter(retryAfter),
    };
  }
  return { kind: 'failed', status, reason: `receiver answered ${status}${said}` };
}

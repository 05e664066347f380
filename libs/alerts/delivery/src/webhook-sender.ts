import { type DeliveryOutcome, networkReason, parseRetryAfter, snippet } from './delivery-outcome';
import { pinnedRequest } from './pinned-request';
import { checkTarget, type LookupAll, TargetNotAllowedError } from './ssrf-guard';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhook } from './webhook-signature';
import type { WebhookEvent } from './webhook-event';

export interface WebhookSenderOptions {
  allowHosts?: readonly string[];
  timeoutMs?: number;
  lookup?: LookupAll;
  userAgent?: string;
}

/**
 * Sends one signed webhook delivery. The URL is checked (and its address pinned) on every attempt;
 * the signature is computed fresh with the current time; redirects are not followed.
 */
export async function sendWebhook(
  target: { url: string; secret: string },
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
  let response;
  try {
    response = await pinnedRequest(checked, {
      method: 'POST',
      body,
      timeoutMs: options.timeoutMs ?? 10_000,
      headers: {
        'content-type': 'application/json',
        'user-agent': options.userAgent ?? 'paper-alerts-webhooks/1',
        [SIGNATURE_HEADER]: signWebhook(target.secret, body),
        [EVENT_ID_HEADER]: event.id,
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

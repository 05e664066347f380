import { execFile } from 'node:child_process';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';

/** What a receiver got: the raw body and the request headers (lower-case names). */
export interface SignedDelivery {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Verdicts of independent third-party verifiers on one delivery (true = accepted). */
export interface VerifierVerdicts {
  /** The Standard Webhooks reference library (npm `standardwebhooks`). */
  standardwebhooks: boolean;
  /** Svix's library (npm `svix`), which verifies the unbranded Standard Webhooks headers. */
  svix: boolean;
  /** Stripe's Node verifier on `x-service-alerts-signature` (npm `stripe`). */
  stripe: boolean;
}

function header(delivery: SignedDelivery, name: string): string {
  const value = delivery.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function accepts(verify: () => unknown): boolean {
  try {
    verify();
    return true;
  } catch {
    return false;
  }
}

/** Runs the npm verifiers on a delivery with the channel's signing secret. */
export function verifyWithThirdParties(secret: string, delivery: SignedDelivery): VerifierVerdicts {
  const standard = {
    'webhook-id': header(delivery, 'webhook-id'),
    'webhook-timestamp': header(delivery, 'webhook-timestamp'),
    'webhook-signature': header(delivery, 'webhook-signature'),
  };
  return {
    standardwebhooks: accepts(() => new StandardWebhook(secret).verify(delivery.rawBody, standard)),
    svix: accepts(() => new SvixWebhook(secret).verify(delivery.rawBody, standard)),
    stripe: accepts(() =>
      Stripe.webhooks.constructEvent(delivery.rawBody, header(delivery, 'x-service-alerts-signature'), secret, 300),
    ),
  };
}

const PYTHON_STRIPE = `
import json, sys, stripe
out = []
for case in json.load(sys.stdin):
    try:
        stripe.WebhookSignature.verify_header(case["body"], case["header"], case["secret"], 300)
        out.append(True)
    except Exception:
        out.append(False)
print(json.dumps(out))
`;

/**
 * Stripe's Python verifier (Debian's python3-stripe, under the system python) on
 * `x-service-alerts-signature`, for a batch of deliveries in one process: one verdict each.
 */
export function verifyWithPythonStripe(cases: { secret: string; delivery: SignedDelivery }[]): Promise<boolean[]> {
  const input = JSON.stringify(
    cases.map((c) => ({
      secret: c.secret,
      body: c.delivery.rawBody,
      header: header(c.delivery, 'x-service-alerts-signature'),
    })),
  );
  return new Promise((resolve, reject) => {
    const child = execFile('/usr/bin/python3', ['-c', PYTHON_STRIPE], { timeout: 30_000 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as boolean[]);
    });
    child.stdin!.end(input);
  });
}

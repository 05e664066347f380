import {
  type ReceivedWebhook,
  startWebhookReceiver,
  verifyWithPythonStripe,
  verifyWithThirdParties,
  type WebhookReceiver,
} from '@paper/dev-stack';
import { randomBytes } from 'node:crypto';
import { buildWebhookEvent } from './webhook-event';
import { sendWebhook } from './webhook-sender';
import { createSigningSecret, signWebhook, standardWebhookHeaders } from './webhook-signature';

const ALL = { standardwebhooks: true, svix: true, stripe: true };
const NONE = { standardwebhooks: false, svix: false, stripe: false };

/** A secret as issued before Standard Webhooks: base64url, with `-` or `_` in it. */
function legacySecret(): string {
  for (;;) {
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    if (/[-_]/.test(secret.slice(6))) return secret;
  }
}

describe('independent verifiers on real deliveries (standardwebhooks, svix, stripe in Node and Python)', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  async function deliver(secrets: string[], receiverSecret: string, id: string): Promise<ReceivedWebhook> {
    receiver.setSecret(receiverSecret);
    const outcome = await sendWebhook(
      { url: `${receiver.url}/in`, secrets },
      buildWebhookEvent(id, 'alert.test', { text: 'naïve — ünïcode ✓ "quoted" </script>', n: 1.5 }),
      { allowHosts: [receiver.hostPort] },
    );
    expect(outcome.kind).toBe(receiver.received.at(-1)!.valid ? 'delivered' : 'failed');
    const got = receiver.received.at(-1)!;
    expect(got.webhookId).toBe(id);
    expect(got.headerEventId).toBe(id);
    return got;
  }

  it('a new secret is whsec_ + standard base64, and every verifier accepts the delivery', async () => {
    const secret = createSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await deliver([secret], secret, 'evt_new');
    expect(got.valid).toBe(true);
    expect(got.verifiers).toEqual(ALL);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(await verifyWithPythonStripe([{ secret, delivery: got }])).toEqual([true]);
  });

  it('a secret issued as base64url keeps signing with its key bytes (Stripe style: the same string)', async () => {
    const legacy = legacySecret();
    const got = await deliver([legacy], legacy, 'evt_legacy');
    // The Standard Webhooks libraries decode standard base64 only: they check it in that form.
    const standardForm = `whsec_${Buffer.from(legacy.slice(6), 'base64url').toString('base64')}`;
    expect(verifyWithThirdParties(standardForm, got)).toMatchObject({ standardwebhooks: true, svix: true });
    expect(verifyWithThirdParties(legacy, got)).toMatchObject({ stripe: true });
    expect(await verifyWithPythonStripe([{ secret: legacy, delivery: got }])).toEqual([true]);
  });

  it('during a rotation both secrets sign: receivers holding either one verify', async () => {
    const [next, previous] = [createSigningSecret(), createSigningSecret()];
    const withNew = await deliver([next, previous], next, 'evt_rot_1');
    const withOld = await deliver([next, previous], previous, 'evt_rot_2');
    expect([withNew.verifiers, withOld.verifiers]).toEqual([ALL, ALL]);
    expect((withNew.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(
      await verifyWithPythonStripe([
        { secret: next, delivery: withNew },
        { secret: previous, delivery: withOld },
      ]),
    ).toEqual([true, true]);
  });

  it('tampered, re-serialised, replayed and foreign-secret deliveries are refused by every verifier', async () => {
    const secret = createSigningSecret();
    const got = await deliver([secret], secret, 'evt_refused');
    const tampered = { ...got, rawBody: got.rawBody.replace('1.5', '2.5') };
    const reserialised = { ...got, rawBody: JSON.stringify(JSON.parse(got.rawBody), null, 1) };
    const old = Math.floor(Date.now() / 1000) - 3600;
    const replayed = {
      rawBody: got.rawBody,
      headers: {
        ...standardWebhookHeaders([secret], 'evt_refused', got.rawBody, old),
        'x-service-alerts-signature': signWebhook(secret, got.rawBody, old),
      },
    };
    const cases = [tampered, reserialised, replayed];
    for (const delivery of cases) expect(verifyWithThirdParties(secret, delivery)).toEqual(NONE);
    expect(verifyWithThirdParties(createSigningSecret(), got)).toEqual(NONE);
    expect(
      await verifyWithPythonStripe([
        ...cases.map((delivery) => ({ secret, delivery })),
        { secret: createSigningSecret(), delivery: got },
      ]),
    ).toEqual([false, false, false, false]);
  });
});

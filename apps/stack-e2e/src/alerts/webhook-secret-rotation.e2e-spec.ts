import { startTestStack, startWebhookReceiver, type TestStack, type WebhookReceiver } from '@paper/dev-stack';
import { type Call, client, DISCORD_URL, newAccount, sql } from './alerts-test-kit';

interface Channel {
  id: string;
  signingSecret?: string;
}
interface Rotated extends Channel {
  signingSecret: string;
  previousSecretExpiresAt: string;
}

const ALL = { standardwebhooks: true, svix: true, stripe: true };

describe('webhook secret rotation', () => {
  let stack: TestStack;
  let call: Call;
  let token: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    stack = await startTestStack({ apps: ['alerts-api'], env: { ALERTS_ALLOW_HOSTS: receiver.hostPort } });
    call = client(stack.alertsUrl);
    ({ token } = await newAccount(call));
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  async function test(id: string): Promise<{ delivered: boolean }> {
    const res = await call<{ delivered: boolean }>('POST', `/api/channels/${id}/test`, { token });
    expect(res.status).toBe(200);
    return res.body;
  }

  it('both secrets sign for 24 hours: receivers switch over with zero failed verifications', async () => {
    const created = await call<Channel>('POST', '/api/channels', {
      token,
      body: { kind: 'webhook', target: `${receiver.url}/in` },
    });
    const [id, first] = [created.body.id, created.body.signingSecret!];
    receiver.setSecret(first);
    expect(await test(id)).toMatchObject({ delivered: true });

    const before = Date.now();
    const rotated = await call<Rotated>('POST', `/api/channels/${id}/rotate-secret`, { token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.body.signingSecret).not.toBe(first);
    const expires = Date.parse(rotated.body.previousSecretExpiresAt);
    expect(Math.abs(expires - before - 24 * 3600_000)).toBeLessThan(60_000);

    // A receiver still holding the old secret, then one holding the new: both verify.
    expect(await test(id)).toMatchObject({ delivered: true });
    receiver.setSecret(rotated.body.signingSecret);
    expect(await test(id)).toMatchObject({ delivered: true });
    const overlap = receiver.received.slice(1);
    expect(overlap.map((r) => (r.headers['webhook-signature'] as string).split(' ').length)).toEqual([2, 2]);
    expect(receiver.received.map((r) => [r.valid, r.verifiers])).toEqual([
      [true, ALL],
      [true, ALL],
      [true, ALL],
    ]);

    // Once the overlap has passed only the new secret signs.
    await sql(stack.database.url, `UPDATE alerts.channels SET previous_secret_expires_at = now() WHERE id = $1`, [id]);
    expect(await test(id)).toMatchObject({ delivered: true });
    expect((receiver.received.at(-1)!.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    receiver.setSecret(first);
    expect(await test(id)).toMatchObject({ delivered: false });
    expect(receiver.received.at(-1)).toMatchObject({ valid: false, status: 400 });
  });

  it('answers 409 for channels without a secret and 404 for unknown ones', async () => {
    const discord = await call<Channel>('POST', '/api/channels', {
      token,
      body: { kind: 'discord', target: DISCORD_URL },
    });
    expect(await call('POST', `/api/channels/${discord.body.id}/rotate-secret`, { token })).toMatchObject({
      status: 409,
      body: { code: 'conflict', message: 'A discord channel has no signing secret.' },
    });
    const unknown = await call('POST', '/api/channels/00000000-0000-4000-8000-000000000000/rotate-secret', { token });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await call('POST', '/api/channels/nope/rotate-secret', { token })).body).toMatchObject({
      code: 'not_found',
    });
  });
});

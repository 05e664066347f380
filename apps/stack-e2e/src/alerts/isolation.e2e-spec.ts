import { startTestStack, type TestStack } from '@paper/dev-stack';
import { type Call, client, newAccount, type Receiver, sql, startReceiver, WALLET } from './alerts-test-kit';
import { type AlertFixture, insertAlert } from './alert-fixtures';

describe('alerts-api account isolation', () => {
  let stack: TestStack;
  let call: Call;
  let hook: Receiver;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let watchId: string;
  let channelId: string;
  let alert: AlertFixture;

  beforeAll(async () => {
    hook = await startReceiver();
    stack = await startTestStack({ apps: ['alerts-api'], env: { ALERTS_ALLOW_HOSTS: hook.hostPort } });
    call = client(stack.alertsUrl);
    alice = await newAccount(call);
    bob = await newAccount(call);
    watchId = (
      await call<{ id: string }>('POST', '/api/watches', {
        token: alice.token,
        body: { address: WALLET, label: 'alice' },
      })
    ).body.id;
    channelId = (
      await call<{ id: string }>('POST', '/api/channels', {
        token: alice.token,
        body: { kind: 'webhook', target: `${hook.url}/alice` },
      })
    ).body.id;
    alert = await insertAlert(stack.database.url, alice.id, [channelId], { status: 'dead' });
  });

  afterAll(async () => {
    await stack?.stop();
    await hook?.close();
  });

  it('never shows one account’s resources to another', async () => {
    const me = await call<{ watches: unknown[]; channels: unknown[] }>('GET', '/api/me', { token: bob.token });
    expect(me.body.watches).toEqual([]);
    expect(me.body.channels).toEqual([]);
    expect((await call<{ alerts: unknown[] }>('GET', '/api/alerts', { token: bob.token })).body.alerts).toEqual([]);
    expect(
      (await call<{ deliveries: unknown[] }>('GET', '/api/deliveries/dead', { token: bob.token })).body.deliveries,
    ).toEqual([]);
    expect((await call('GET', `/api/alerts?before=${alert.alertId}`, { token: bob.token })).status).toBe(400);
  });

  it('answers 404 to every attempt to change another account’s resources', async () => {
    const attempts: [string, string, unknown][] = [
      ['PATCH', `/api/watches/${watchId}`, { label: 'bob', rules: { opened: false } }],
      ['DELETE', `/api/watches/${watchId}`, undefined],
      ['PATCH', `/api/channels/${channelId}`, { status: 'paused' }],
      ['POST', `/api/channels/${channelId}/test`, undefined],
      ['DELETE', `/api/channels/${channelId}`, undefined],
      ['POST', `/api/deliveries/${alert.deliveryIds[0]}/retry`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(method, path, { token: bob.token, body });
      expect({ method, path, status: res.status, code: res.body['code'] }).toEqual({
        method,
        path,
        status: 404,
        code: 'not_found',
      });
    }
    expect(hook.received).toHaveLength(0);
  });

  it('leaves the owner’s resources untouched', async () => {
    const me = await call<{
      watches: { id: string; label: string; rules: { opened: boolean } }[];
      channels: { id: string; status: string }[];
    }>('GET', '/api/me', { token: alice.token });
    expect(me.body.watches).toEqual([
      expect.objectContaining({ id: watchId, label: 'alice', rules: expect.objectContaining({ opened: true }) }),
    ]);
    expect(me.body.channels).toEqual([expect.objectContaining({ id: channelId, status: 'active' })]);
    const [delivery] = await sql<{ status: string }>(
      stack.database.url,
      'SELECT status FROM alerts.deliveries WHERE id = $1',
      [alert.deliveryIds[0]],
    );
    expect(delivery!.status).toBe('dead');
  });

  it('keeps watches idempotent per account: the same address and role in two accounts are two watches', async () => {
    const bobs = await call<{ id: string }>('POST', '/api/watches', { token: bob.token, body: { address: WALLET } });
    expect(bobs.status).toBe(201);
    expect(bobs.body.id).not.toBe(watchId);
  });

  it('deleting one account leaves the other intact', async () => {
    expect((await call('DELETE', '/api/me', { token: bob.token })).status).toBe(204);
    expect((await call('GET', '/api/me', { token: alice.token })).status).toBe(200);
    expect((await call<{ alerts: unknown[] }>('GET', '/api/alerts', { token: alice.token })).body.alerts).toHaveLength(
      1,
    );
  });
});

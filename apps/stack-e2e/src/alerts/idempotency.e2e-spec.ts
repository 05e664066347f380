import { startTestStack, startWebhookReceiver, type TestStack, type WebhookReceiver } from '@paper/dev-stack';
import { type Answer, type Call, client, newAccount, sql, WALLET } from './alerts-test-kit';
import { insertAlert } from './alert-fixtures';

describe('Idempotency-Key on the alerts API writes', () => {
  let stack: TestStack;
  let call: Call;
  let account: { id: string; token: string };
  let receiver: WebhookReceiver;
  let n = 0;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    stack = await startTestStack({ apps: ['alerts-api'], env: { ALERTS_ALLOW_HOSTS: receiver.hostPort } });
    call = client(stack.alertsUrl);
    account = await newAccount(call);
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const send = <T = Record<string, unknown>>(method: string, path: string, key: string, body?: unknown) =>
    call<T>(method, path, { token: account.token, body, headers: { 'idempotency-key': key } });

  /** Sends a write twice with one key: the second answer is the first, replayed; other arguments are refused. */
  async function twice<T = Record<string, unknown>>(
    method: string,
    path: string,
    body: unknown,
    other: { path?: string; body?: unknown },
  ): Promise<Answer<T>> {
    const key = `key-${(n += 1)}-${Date.now()}`;
    const first = await send<T>(method, path, key, body);
    expect(first.status).toBeLessThan(300);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await send<T>(method, path, key, body);
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const mismatch = await send(method, other.path ?? path, key, other.body ?? body);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toMatchObject({ code: 'idempotency_key_mismatch' });
    return first;
  }

  const count = async (table: string) =>
    Number(
      (
        await sql<{ n: string }>(
          stack.database.url,
          `SELECT count(*) AS n FROM alerts.${table} WHERE account_id = $1`,
          [account.id],
        )
      )[0]!.n,
    );

  it('channels: create, pause, rotate the secret, recover, test and delete each take effect once', async () => {
    const created = await twice<{ id: string; signingSecret: string }>(
      'POST',
      '/api/channels',
      { kind: 'webhook', target: `${receiver.url}/in` },
      { body: { kind: 'webhook', target: `${receiver.url}/other` } },
    );
    expect(created.status).toBe(201);
    expect(await count('channels')).toBe(1);
    const id = created.body.id;
    await twice('PATCH', `/api/channels/${id}`, { status: 'paused' }, { body: { status: 'active' } });
    await twice('PATCH', `/api/channels/${id}`, { status: 'active' }, { body: { status: 'paused' } });

    const rotated = await twice<{ signingSecret: string }>('POST', `/api/channels/${id}/rotate-secret`, undefined, {
      body: { x: 1 },
    });
    const [row] = await sql<{ secret: string; previous_secret: string }>(
      stack.database.url,
      `SELECT secret, previous_secret FROM alerts.channels WHERE id = $1`,
      [id],
    );
    // Rotated once: the replayed answer's secret is the current one, the created one is the previous.
    expect(row).toEqual({ secret: rotated.body.signingSecret, previous_secret: created.body.signingSecret });

    await insertAlert(stack.database.url, account.id, [id], { status: 'dead', secondsAgo: 10 });
    const since = new Date(Date.now() - 60_000).toISOString();
    const recovered = await twice(
      'POST',
      `/api/channels/${id}/recover`,
      { since },
      { body: { since: '2020-01-01T00:00:00Z' } },
    );
    expect(recovered.body).toEqual({ requeued: 1, more: false });

    receiver.setSecret(rotated.body.signingSecret);
    await twice('POST', `/api/channels/${id}/test`, undefined, { path: `/api/channels/${id}/recover` });
    expect(receiver.received).toHaveLength(1);

    const removed = await twice('DELETE', `/api/channels/${id}`, undefined, { path: `/api/watches/${id}` });
    expect(removed.status).toBe(204);
    expect(await count('channels')).toBe(0);
  });

  it('watches, protocol rules and dead-letter retries take effect once', async () => {
    const watch = await twice<{ id: string }>(
      'POST',
      '/api/watches',
      { address: WALLET, role: 'follow' },
      { body: { address: WALLET, role: 'own' } },
    );
    expect(watch.status).toBe(201);
    await twice('PATCH', `/api/watches/${watch.body.id}`, { label: 'a' }, { body: { label: 'b' } });
    await twice(
      'PUT',
      '/api/protocol-rules',
      { mintRate: { enabled: true } },
      { body: { mintRate: { enabled: false } } },
    );
    await twice('DELETE', `/api/watches/${watch.body.id}`, undefined, { path: '/api/watches/x' });
    expect(await count('watches')).toBe(0);

    const channel = await send<{ id: string }>('POST', '/api/channels', 'channel-for-retry', {
      kind: 'webhook',
      target: `${receiver.url}/in`,
    });
    const dead = await insertAlert(stack.database.url, account.id, [channel.body.id], { status: 'dead' });
    const retried = await twice('POST', `/api/deliveries/${dead.deliveryIds[0]}/retry`, undefined, { body: { a: 1 } });
    expect(retried.status).toBe(202);
  });

  it('keys are per account, canonical in their arguments, and refused when malformed', async () => {
    const other = await newAccount(call);
    const body = { address: WALLET, role: 'follow', label: 'x' };
    const mine = await send<{ id: string }>('POST', '/api/watches', 'shared-key', body);
    const theirs = await call<{ id: string }>('POST', '/api/watches', {
      token: other.token,
      body,
      headers: { 'idempotency-key': 'shared-key' },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    // The same arguments in another key order are the same request.
    const reordered = await send<{ id: string }>('POST', '/api/watches', 'shared-key', {
      label: 'x',
      role: 'follow',
      address: WALLET,
    });
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(reordered.body.id).toBe(mine.body.id);
    for (const key of ['', 'x'.repeat(256), 'with space']) {
      const bad = await send('POST', '/api/watches', key, body);
      expect(bad).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    }
  });

  it('errors are not kept: the same key runs again once the request is valid', async () => {
    const refused = await send('POST', '/api/channels', 'after-error', { kind: 'webhook', target: 'http://10.0.0.1/' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'target_not_allowed' } });
    const again = await send('POST', '/api/channels', 'after-error', { kind: 'webhook', target: 'http://10.0.0.1/' });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(400);
  });
});

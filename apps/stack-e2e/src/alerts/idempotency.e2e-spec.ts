import { startTestStack, startWebhookReceiver, type TestStack, type WebhookReceiver } from '@paper/dev-stack';
import { randomBytes, randomUUID } from 'node:crypto';
import { type Answer, type Call, client, newAccount, nextSourceAddress, sql, WALLET } from './alerts-test-kit';
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

  const accounts = async () =>
    Number((await sql<{ n: string }>(stack.database.url, `SELECT count(*) AS n FROM alerts.accounts`))[0]!.n);

  it('account creation: the same key answers the same account and token, once; another body is refused', async () => {
    const key = randomUUID();
    const from = nextSourceAddress();
    const create = (body?: unknown) =>
      call<Created>('POST', '/api/accounts', { from, body, headers: { 'idempotency-key': key } });
    const before = await accounts();
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // More replays than the address may create accounts at once (10): a replay creates nothing and is not counted.
    for (let i = 0; i < 12; i += 1) {
      const again = await create();
      expect({ status: again.status, body: again.body }).toEqual({ status: 201, body: first.body });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await accounts()).toBe(before + 1);
    const mismatch = await create({ plan: 'other' });
    expect(mismatch).toMatchObject({ status: 409, body: { code: 'idempotency_key_mismatch' } });
    const me = await call<{ account: { id: string } }>('GET', '/api/me', { token: first.body.token });
    expect(me.body.account.id).toBe(first.body.account.id);

    // At rest the row holds neither the key nor the token (nor the account id): a hash and a sealed answer.
    const rows = await sql(stack.database.url, `SELECT * FROM alerts.idempotency_keys WHERE scope = 'key'`);
    expect(rows).toHaveLength(1);
    for (const secret of [key, first.body.token, first.body.account.id])
      expect(JSON.stringify(rows)).not.toContain(secret);

    // Another key is another account; a short key is refused (it is the only secret guarding the token).
    const other = await call<Created>('POST', '/api/accounts', { from, headers: { 'idempotency-key': randomUUID() } });
    expect(other.status).toBe(201);
    expect(other.body.account.id).not.toBe(first.body.account.id);
    const short = await call('POST', '/api/accounts', { from, headers: { 'idempotency-key': 'retry-1' } });
    expect(short).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect(await accounts()).toBe(before + 2);
  });

  it('account deletion: a retry with its key answers the first answer; without it 401; the dead token does nothing else', async () => {
    const doomed = await newAccount(call);
    const key = randomUUID();
    const remove = (headers: Record<string, string> = { 'idempotency-key': key }, token = doomed.token) =>
      call('DELETE', '/api/me', { token, headers });
    const first = await remove();
    expect(first.status).toBe(204);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await remove();
    expect(again.status).toBe(204);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const rows = await sql(stack.database.url, `SELECT 1 FROM alerts.accounts WHERE id = $1`, [doomed.id]);
    expect(rows).toHaveLength(0);

    expect(await remove({})).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(await remove({ 'idempotency-key': randomUUID() })).toMatchObject({ status: 401 });
    // The key under another token (one that never existed) is not that replay.
    const forged = `alrt_${doomed.id.replace(/-/g, '')}_${randomBytes(32).toString('base64url')}`;
    expect(await remove({ 'idempotency-key': key }, forged)).toMatchObject({ status: 401 });
    // The dead token with the same key authenticates nothing else.
    const headers = { 'idempotency-key': key };
    expect(await call('GET', '/api/me', { token: doomed.token, headers })).toMatchObject({ status: 401 });
    const watch = await call('POST', '/api/watches', { token: doomed.token, headers, body: { address: WALLET } });
    expect(watch).toMatchObject({ status: 401 });
  });

  it('the OpenAPI document gives Idempotency-Key on exactly the writes that take it', async () => {
    type Operation = { parameters?: { name: string; in: string; schema: { minLength?: number } }[] };
    const doc = (await (await fetch(`${stack.alertsUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const keyOf = (path: string, method: string) =>
      doc.paths[path]![method]!.parameters?.find((p) => p.name === 'Idempotency-Key' && p.in === 'header');
    expect(keyOf('/api/accounts', 'post')?.schema.minLength).toBe(32);
    expect(keyOf('/api/me', 'delete')?.schema.minLength).toBe(1);
    expect(keyOf('/api/watches', 'post')).toBeDefined();
    expect(keyOf('/api/channels/{id}', 'patch')).toBeDefined();
    expect(keyOf('/api/me', 'get')).toBeUndefined();
    expect(keyOf('/mcp', 'post')).toBeUndefined();
  });
});

interface Created {
  account: { id: string; createdAt: string };
  token: string;
}

import {
  claimIdempotencyKey,
  IDEMPOTENCY_RETENTION_MS,
  PgIdempotencyStore,
  requestFingerprint,
  SealedIdempotencyStore,
} from '@paper/idempotency';
import { randomUUID } from 'node:crypto';
import { type AlertsQueryDatabase, createAlertsQueryDatabase } from '../testing/alerts-query-database';

describe('Idempotency-Key rules on alerts.idempotency_keys (PgIdempotencyStore)', () => {
  let db: AlertsQueryDatabase;
  let store: PgIdempotencyStore;
  const fp = requestFingerprint('POST', '/api/channels', { kind: 'webhook' });

  beforeAll(async () => {
    db = await createAlertsQueryDatabase('idempotency_keys');
    store = new PgIdempotencyStore(db.dataSource, 'alerts.idempotency_keys');
  });
  afterAll(() => db?.drop());

  it('the first request runs; the same arguments replay its answer; other arguments are a mismatch', async () => {
    expect(await claimIdempotencyKey(store, 'acct-1', 'k1', fp)).toEqual({ kind: 'run' });
    await store.complete('acct-1', 'k1', { status: 201, body: { id: 'c1' } });
    expect(await claimIdempotencyKey(store, 'acct-1', 'k1', fp)).toEqual({
      kind: 'replay',
      answer: { status: 201, body: { id: 'c1' } },
    });
    const other = requestFingerprint('POST', '/api/channels', { kind: 'discord' });
    expect(await claimIdempotencyKey(store, 'acct-1', 'k1', other)).toEqual({ kind: 'mismatch' });
    expect(await claimIdempotencyKey(store, 'acct-2', 'k1', other)).toEqual({ kind: 'run' });
  });

  it('a retry while the first runs waits for its answer, and gives up after the bound', async () => {
    expect(await claimIdempotencyKey(store, 'acct-1', 'k2', fp)).toEqual({ kind: 'run' });
    const retry = claimIdempotencyKey(store, 'acct-1', 'k2', fp, { waitMs: 20_000, pollMs: 10 });
    expect(await store.get('acct-1', 'k2')).toMatchObject({ state: 'running' });
    await store.complete('acct-1', 'k2', { status: 200, body: { ok: true } });
    expect(await retry).toEqual({ kind: 'replay', answer: { status: 200, body: { ok: true } } });

    expect(await claimIdempotencyKey(store, 'acct-1', 'k3', fp)).toEqual({ kind: 'run' });
    expect(await claimIdempotencyKey(store, 'acct-1', 'k3', fp, { waitMs: 50, pollMs: 10 })).toEqual({
      kind: 'in_progress',
    });
  });

  it('a released key runs again; a running key left by a dead request is taken over', async () => {
    expect(await claimIdempotencyKey(store, 'acct-1', 'k4', fp)).toEqual({ kind: 'run' });
    await store.release('acct-1', 'k4');
    expect(await claimIdempotencyKey(store, 'acct-1', 'k4', fp)).toEqual({ kind: 'run' });
    await db.dataSource.query(
      `UPDATE alerts.idempotency_keys SET created_at = now() - interval '2 minutes' WHERE key = 'k4'`,
    );
    expect(await claimIdempotencyKey(store, 'acct-1', 'k4', fp, { waitMs: 0 })).toEqual({ kind: 'run' });
  });

  it('prunes keys older than the retention only', async () => {
    await store.begin('acct-9', 'old', fp);
    await store.begin('acct-9', 'new', fp);
    await db.dataSource.query(
      `UPDATE alerts.idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old'`,
    );
    expect(await store.prune(IDEMPOTENCY_RETENTION_MS)).toBe(1);
    expect(await store.get('acct-9', 'old')).toBeUndefined();
    expect(await store.get('acct-9', 'new')).toBeDefined();
  });

  it('keys scoped by themselves: the row holds neither the key nor the answer, which replays to the key only', async () => {
    const sealed = new SealedIdempotencyStore(store);
    const key = randomUUID();
    const answer = { status: 201, body: { account: { id: 'acct-new' }, token: 'alrt_plain_token_value' } };
    const created = requestFingerprint('POST', '/api/accounts', {});
    expect(await claimIdempotencyKey(sealed, 'key', key, created)).toEqual({ kind: 'run' });
    await sealed.complete('key', key, answer);
    expect(await claimIdempotencyKey(sealed, 'key', key, created)).toEqual({ kind: 'replay', answer });
    const rows = await db.dataSource.query<Record<string, unknown>[]>(
      `SELECT * FROM alerts.idempotency_keys WHERE scope = 'key'`,
    );
    expect(rows).toHaveLength(1);
    const atRest = JSON.stringify(rows);
    for (const secret of [key, 'alrt_plain_token_value', 'acct-new']) expect(atRest).not.toContain(secret);
    expect(rows[0]).toMatchObject({ state: 'done', status: 201, body: { sealed: expect.stringMatching(/^v1\./) } });
    // Under another key the row is another row: nothing to replay.
    expect(await sealed.get('key', randomUUID())).toBeUndefined();
  });
});

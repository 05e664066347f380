import { startTestStack, type TestStack } from '@paper/dev-stack';
import { createHash } from 'node:crypto';
import { type Call, client, newAccount, sql, WALLET } from './alerts-test-kit';

interface Watch {
  id: string;
  address: string;
  role: string | null;
  label: string | null;
  rules: Record<string, unknown> & { liquidation: { enabled: boolean; belowPct: number } };
}

describe('alerts-api accounts and watches', () => {
  let stack: TestStack;
  let call: Call;
  let token: string;

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['alerts-api'], env: { ALERTS_MAX_WATCHES: '4' } });
    call = client(stack.alertsUrl);
    ({ token } = await newAccount(call));
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe('accounts and tokens', () => {
    it('returns the token once (201) and stores only its SHA-256', async () => {
      const res = await call<{ account: { id: string; createdAt: string }; token: string }>('POST', '/api/accounts');
      expect(res.status).toBe(201);
      expect(res.body.token).toMatch(/^alrt_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
      // A secret shown once is never kept by a cache.
      expect(res.headers.get('cache-control')).toBe('no-store');
      const me = await call('GET', '/api/me', { token: res.body.token });
      expect(me.status).toBe(200);
      expect(JSON.stringify(me.body)).not.toContain(res.body.token);
      expect(me.body).toMatchObject({
        account: { id: res.body.account.id },
        watches: [],
        channels: [],
        limits: { watches: 4, channels: 10 },
      });
      const rows = await sql<{ token_hash: string }>(
        stack.database.url,
        'SELECT token_hash FROM alerts.accounts WHERE id = $1',
        [res.body.account.id],
      );
      expect(rows[0]!.token_hash).toBe(createHash('sha256').update(res.body.token).digest('hex'));
      const dump = await sql(
        stack.database.url,
        `SELECT count(*)::int AS n FROM alerts.accounts WHERE row_to_json(accounts)::text LIKE '%' || $1 || '%'`,
        [res.body.token],
      );
      expect(dump[0]!['n']).toBe(0);
    });

    it.each([
      ['no header', undefined],
      ['a wrong token', 'alrt_00000000000000000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['a malformed token', 'nope'],
    ])('answers 401 with { code, message } for %s', async (_name, bad) => {
      const res = await call('GET', '/api/me', { token: bad });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'unauthorized', message: expect.any(String) });
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
    });

    it('refuses a token whose secret part was changed', async () => {
      const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      expect((await call('GET', '/api/me', { token: tampered })).status).toBe(401);
    });

    it('checks the token before validating the body', async () => {
      const res = await call('POST', '/api/watches', { body: { nonsense: true } });
      expect(res.status).toBe(401);
    });
  });

  describe('watches', () => {
    it('creates a watch with default rules, lower-cased address (201), then returns the same id (200)', async () => {
      const first = await call<Watch>('POST', '/api/watches', { token, body: { address: WALLET } });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        address: WALLET.toLowerCase(),
        role: null,
        label: null,
        rules: { liquidation: { enabled: true, belowPct: 10 }, opened: true },
      });
      const again = await call<Watch>('POST', '/api/watches', { token, body: { address: WALLET.toLowerCase() } });
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(first.body.id);
      const withRole = await call<Watch>('POST', '/api/watches', {
        token,
        body: { address: WALLET, role: 'follow', label: 'whale' },
      });
      expect(withRole.status).toBe(201);
      expect(withRole.body.id).not.toBe(first.body.id);
      const roleAgain = await call<Watch>('POST', '/api/watches', {
        token,
        body: { address: WALLET, role: 'follow', rules: { opened: false } },
      });
      expect(roleAgain.status).toBe(200);
      expect(roleAgain.body).toMatchObject({
        id: withRole.body.id,
        label: 'whale',
        rules: { opened: false, closed: true },
      });
      const me = await call<{ watches: Watch[] }>('GET', '/api/me', { token });
      expect(me.body.watches.map((w) => w.id).sort()).toEqual([first.body.id, withRole.body.id].sort());
    });

    it('merges partial rules on PATCH and keeps everything else', async () => {
      const created = await call<Watch>('POST', '/api/watches', {
        token,
        body: { address: WALLET, role: 'team', rules: { balance: { enabled: true, changeUsd: 50 } } },
      });
      const patched = await call<Watch>('PATCH', `/api/watches/${created.body.id}`, {
        token,
        body: { rules: { liquidation: { belowPct: 2.5 }, balance: { changeUsd: 75 } } },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.rules).toEqual({
        liquidation: { enabled: true, belowPct: 2.5 },
        opened: true,
        closed: true,
        liquidated: true,
        balance: { enabled: true, changeUsd: 75 },
        sessionKey: { enabled: true, withinDays: 3 },
        rewards: { enabled: false, aboveUsdc: 100 },
      });
      const labelled = await call<Watch>('PATCH', `/api/watches/${created.body.id}`, {
        token,
        body: { label: 'desk' },
      });
      expect(labelled.body).toMatchObject({ label: 'desk', rules: patched.body.rules });
      const cleared = await call<Watch>('PATCH', `/api/watches/${created.body.id}`, { token, body: { label: null } });
      expect(cleared.body.label).toBeNull();
    });

    it('applies concurrent partial patches to different rule keys without losing any', async () => {
      const { token } = await newAccount(call);
      const { body } = await call<Watch>('POST', '/api/watches', { token, body: { address: WALLET, role: 'follow' } });
      const patches = [
        { liquidation: { belowPct: 1.5 } },
        { liquidation: { enabled: false } },
        { opened: false },
        { closed: false },
        { liquidated: false },
        { balance: { enabled: true } },
        { balance: { changeUsd: 42 } },
        { sessionKey: { withinDays: 7 } },
        { sessionKey: { enabled: false } },
        { rewards: { enabled: true } },
        { rewards: { aboveUsdc: 12.5 } },
      ];
      for (let round = 0; round < 3; round += 1) {
        const results = await Promise.all(
          patches.map((rules) => call<Watch>('PATCH', `/api/watches/${body.id}`, { token, body: { rules } })),
        );
        expect(results.map((r) => r.status)).toEqual(patches.map(() => 200));
        const me = await call<{ watches: Watch[] }>('GET', '/api/me', { token });
        expect(me.body.watches.find((w) => w.id === body.id)!.rules).toEqual({
          liquidation: { enabled: false, belowPct: 1.5 },
          opened: false,
          closed: false,
          liquidated: false,
          balance: { enabled: true, changeUsd: 42 },
          sessionKey: { enabled: false, withinDays: 7 },
          rewards: { enabled: true, aboveUsdc: 12.5 },
        });
        const reset = await call<Watch>('PATCH', `/api/watches/${body.id}`, {
          token,
          body: {
            rules: {
              liquidation: { enabled: true, belowPct: 10 },
              opened: true,
              closed: true,
              liquidated: true,
              balance: { enabled: false, changeUsd: 1000 },
              sessionKey: { enabled: true, withinDays: 3 },
              rewards: { enabled: false, aboveUsdc: 100 },
            },
          },
        });
        expect(reset.status).toBe(200);
      }
    });

    const ranges: [string, number, number][] = [
      ['liquidation.belowPct', 0.001, 50],
      ['balance.changeUsd', 1, 1e9],
      ['sessionKey.withinDays', 1, 30],
      ['rewards.aboveUsdc', 0.01, 1e9],
    ];
    const rulesWith = (path: string, value: unknown) => {
      const [group, field] = path.split('.') as [string, string];
      return { [group]: { [field]: value } };
    };

    it.each(ranges)('accepts %s at both ends of its range (%s and %s)', async (path, min, max) => {
      const { body } = await call<Watch>('POST', '/api/watches', { token, body: { address: WALLET, role: 'client' } });
      for (const value of [min, max]) {
        const res = await call<Watch>('PATCH', `/api/watches/${body.id}`, {
          token,
          body: { rules: rulesWith(path, value) },
        });
        expect(res.status).toBe(200);
        const [group, field] = path.split('.') as [string, string];
        expect((res.body.rules[group] as Record<string, number>)[field]).toBe(value);
      }
    });

    it.each(ranges)('refuses %s just outside its range and non-numbers', async (path, min, max) => {
      const { body } = await call<Watch>('POST', '/api/watches', { token, body: { address: WALLET, role: 'client' } });
      const below = min === 1 ? 0.999 : min / 10;
      for (const value of [below, max * 1.000001, -1, '5', null, true]) {
        const res = await call('PATCH', `/api/watches/${body.id}`, { token, body: { rules: rulesWith(path, value) } });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          code: 'validation_failed',
          message: expect.stringContaining(`rules.${path}`),
        });
      }
      const created = await call('POST', '/api/watches', {
        token,
        body: { address: WALLET, role: 'own', rules: rulesWith(path, below) },
      });
      expect(created.status).toBe(400);
    });

    it.each([
      ['{"rules":{"foo":true}}', 'rules.foo'],
      ['{"rules":{"liquidation":{"belowPct":5,"foo":1}}}', 'rules.liquidation.foo'],
      ['{"rules":{"sessionKey":{"withinDays":3,"days":3}}}', 'rules.sessionKey.days'],
      ['{"rules":{"rewards":{"enabled":true,"aboveUSDC":3}}}', 'rules.rewards.aboveUSDC'],
      ['{"rules":{"__proto__":{"polluted":true}}}', 'rules.__proto__'],
      ['{"nickname":"x"}', 'nickname'],
    ])('refuses unknown keys with 400 naming the key (%s)', async (extra, key) => {
      const { body } = await call<Watch>('POST', '/api/watches', { token, body: { address: WALLET, role: 'client' } });
      const create = `{"address":"${WALLET}",${extra.slice(1)}`;
      for (const [method, path, raw] of [
        ['PATCH', `/api/watches/${body.id}`, extra],
        ['POST', '/api/watches', create],
      ] as const) {
        const res = await call(method, path, { token, raw });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'unknown_key', message: `Unknown key "${key}".` });
      }
    });

    it('refuses bad addresses, roles, labels, non-object rules and bodies', async () => {
      for (const body of [
        { address: '0x123' },
        { address: `${WALLET}0` },
        { address: WALLET, role: 'boss' },
        { address: WALLET, label: '' },
        { address: WALLET, label: 'x'.repeat(101) },
        { address: WALLET, rules: [] },
        { address: WALLET, rules: { liquidation: [{ belowPct: 5 }] } },
        { address: WALLET, rules: { opened: 'yes' } },
      ]) {
        const res = await call('POST', '/api/watches', { token, body });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'validation_failed' });
      }
      expect((await call('POST', '/api/watches', { token, raw: '[1,2]' })).body).toMatchObject({
        code: 'validation_failed',
      });
      expect((await call('POST', '/api/watches', { token, raw: '{"address":' })).body).toMatchObject({
        code: 'invalid_json',
      });
    });

    it('refuses bodies that are not JSON with 415 and changes nothing (what fetch sends by default is text/plain)', async () => {
      const { body: watch } = await call<Watch>('POST', '/api/watches', {
        token,
        body: { address: WALLET, role: 'team', label: 'before' },
      });
      const send = (method: string, path: string, body: string, type?: string) =>
        fetch(`${stack.alertsUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) },
          body: type ? body : new TextEncoder().encode(body),
        });
      for (const [method, path, type] of [
        ['PATCH', `/api/watches/${watch.id}`, 'text/plain;charset=UTF-8'],
        ['PATCH', `/api/watches/${watch.id}`, undefined],
        ['POST', '/api/watches', 'application/x-www-form-urlencoded'],
        ['PUT', '/api/protocol-rules', 'text/plain;charset=UTF-8'],
        ['POST', '/api/channels', 'text/plain'],
      ] as const) {
        const res = await send(
          method,
          path,
          JSON.stringify({ label: 'after', address: WALLET, mintRate: { enabled: true } }),
          type,
        );
        expect(res.status).toBe(415);
        expect(await res.json()).toEqual({
          code: 'unsupported_media_type',
          message: expect.stringContaining('Content-Type: application/json'),
        });
      }
      const me = await call<{ watches: Watch[]; protocolRules: { mintRate: { enabled: boolean } } }>('GET', '/api/me', {
        token,
      });
      expect(me.body.watches.find((w) => w.id === watch.id)!.label).toBe('before');
      expect(me.body.protocolRules.mintRate.enabled).toBe(false);
      const huge = await call('POST', '/api/watches', { token, body: { address: WALLET, label: 'x'.repeat(300_000) } });
      expect(huge.status).toBe(413);
      expect(huge.body).toMatchObject({ code: 'payload_too_large' });
    });

    it('refuses NUL characters in labels (watch, channel) with 400 naming the field, writing nothing', async () => {
      const account = await newAccount(call);
      const { body: watch } = await call<Watch>('POST', '/api/watches', {
        token: account.token,
        body: { address: WALLET },
      });
      for (const [method, path, body, field] of [
        ['POST', '/api/watches', { address: WALLET, role: 'own', label: 'main\u0000' }, 'label'],
        ['PATCH', `/api/watches/${watch.id}`, { label: '\u0000' }, 'label'],
        [
          'PATCH',
          `/api/watches/${watch.id}`,
          { rules: { liquidation: { ['belowPct\u0000']: 1 } } },
          'a key of rules.liquidation',
        ],
        ['POST', '/api/channels', { kind: 'webhook', target: 'https://93.184.216.34/in', label: 'ops\u0000' }, 'label'],
        [
          'POST',
          '/api/channels',
          { kind: 'webhook', target: 'https://93.184.216.34/in', label: 'lone \ud800 surrogate' },
          'label',
        ],
      ] as const) {
        const res = await call(method, path, { token: account.token, body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'validation_failed',
          message: expect.stringContaining(
            field.startsWith('a key') ? field : `"${field}" contains a character that cannot be stored`,
          ),
        });
      }
      const query = await call('GET', '/api/alerts?before=%00', { token: account.token });
      expect(query.status).toBe(400);
      const me = await call<{ watches: Watch[]; channels: unknown[] }>('GET', '/api/me', { token: account.token });
      expect(me.body.watches).toEqual([expect.objectContaining({ id: watch.id, label: null, role: null })]);
      expect(me.body.channels).toEqual([]);
    });

    it('answers 404 for unknown and malformed ids', async () => {
      for (const id of ['7d7e4a52-1111-4c3e-9a53-6f2f1f4b0c01', 'not-a-uuid']) {
        expect((await call('PATCH', `/api/watches/${id}`, { token, body: { label: 'x' } })).body).toMatchObject({
          code: 'not_found',
        });
        expect((await call('DELETE', `/api/watches/${id}`, { token })).status).toBe(404);
      }
    });

    it('stops watching on DELETE', async () => {
      const { body } = await call<Watch>('POST', '/api/watches', { token, body: { address: WALLET, role: 'client' } });
      expect((await call('DELETE', `/api/watches/${body.id}`, { token })).status).toBe(204);
      expect((await call('PATCH', `/api/watches/${body.id}`, { token, body: { label: 'x' } })).status).toBe(404);
    });

    it('enforces the per-account watch limit with 409 limit_reached (repeats of existing watches still work)', async () => {
      const account = await newAccount(call);
      const roles = ['own', 'follow', 'team', 'client'];
      for (const role of roles)
        expect(
          (await call('POST', '/api/watches', { token: account.token, body: { address: WALLET, role } })).status,
        ).toBe(201);
      const over = await call('POST', '/api/watches', { token: account.token, body: { address: WALLET } });
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({ code: 'limit_reached' });
      expect(
        (await call('POST', '/api/watches', { token: account.token, body: { address: WALLET, role: 'own' } })).status,
      ).toBe(200);
      expect((await call('GET', '/api/status')).body).toMatchObject({ limits: { watchesPerAccount: 4 } });
    });
  });

  describe('protocol rules', () => {
    it('sets mint-rate and market status rules; omitted fields take defaults', async () => {
      const res = await call('PUT', '/api/protocol-rules', {
        token,
        body: {
          mintRate: { enabled: true, thresholdPerHour: 5000 },
          marketStatus: { enabled: true, markets: ['ETH'] },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        mintRate: { enabled: true, thresholdPerHour: 5000 },
        marketStatus: { enabled: true, markets: ['ETH'] },
      });
      const me = await call('GET', '/api/me', { token });
      expect(me.body['protocolRules']).toEqual(res.body);
      const reset = await call('PUT', '/api/protocol-rules', { token, body: { mintRate: { enabled: true } } });
      expect(reset.body).toEqual({
        mintRate: { enabled: true, thresholdPerHour: 10000 },
        marketStatus: { enabled: false, markets: ['BTC', 'ETH'] },
      });
    });

    it.each([
      [{ mintRate: { thresholdPerHour: 0.5 } }, 'validation_failed'],
      [{ mintRate: { thresholdPerHour: 1e12 + 1 } }, 'validation_failed'],
      [{ marketStatus: { markets: ['DOGE'] } }, 'validation_failed'],
      [{ marketStatus: { markets: ['BTC', 'BTC'] } }, 'validation_failed'],
      [{ mintRate: { enabled: true, rate: 1 } }, 'unknown_key'],
      [{ volume: {} }, 'unknown_key'],
    ])('refuses %j with %s', async (body, code) => {
      const res = await call('PUT', '/api/protocol-rules', { token, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code });
    });
  });
});

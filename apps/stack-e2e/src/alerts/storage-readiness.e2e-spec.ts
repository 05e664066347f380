import { migrateDatabase, startTestStack, type TestStack } from '@paper/dev-stack';
import { type Call, client, eventually, newAccount, WALLET } from './alerts-test-kit';

/** Every endpoint that needs storage, with a body that would otherwise be valid. */
const STORAGE_ENDPOINTS: [string, string, unknown][] = [
  ['POST', '/api/accounts', undefined],
  ['GET', '/api/me', undefined],
  ['DELETE', '/api/me', undefined],
  ['POST', '/api/watches', { address: WALLET }],
  ['PATCH', '/api/watches/7d7e4a52-1111-4c3e-9a53-6f2f1f4b0c01', { label: 'x' }],
  ['DELETE', '/api/watches/7d7e4a52-1111-4c3e-9a53-6f2f1f4b0c01', undefined],
  ['POST', '/api/channels', { kind: 'webhook', target: 'https://93.184.216.34/hook' }],
  ['PATCH', '/api/channels/7d7e4a52-1111-4c3e-9a53-6f2f1f4b0c01', { status: 'paused' }],
  ['DELETE', '/api/channels/7d7e4a52-1111-4c3e-9a53-6f2f1f4b0c01', undefined],
  ['POST', '/api/channels/7d7e4a52-1111-4c3e-9a53-6f2f1f4b0c01/test', undefined],
  ['POST', '/api/telegram/link', undefined],
  ['PUT', '/api/protocol-rules', {}],
  ['GET', '/api/alerts?limit=5', undefined],
  ['GET', '/api/deliveries/dead', undefined],
  ['POST', '/api/deliveries/7d7e4a52-1111-4c3e-9a53-6f2f1f4b0c01/retry', undefined],
];

describe('alerts-api before and after its schema is applied', () => {
  let stack: TestStack;
  let call: Call;

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['alerts-api'], migrate: false });
    call = client(stack.alertsUrl);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('starts (readyz up) while the schema does not exist', async () => {
    const res = await fetch(`${stack.appUrls['alerts-api']}/readyz`);
    expect(res.status).toBe(200);
  });

  it.each(STORAGE_ENDPOINTS)(
    '%s %s answers 503 service_initializing with Retry-After: 300, with or without a token',
    async (method, path, body) => {
      for (const token of [undefined, 'alrt_not_checked_yet']) {
        const res = await call(method, path, { token, body });
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('300');
        expect(res.body).toEqual({ code: 'service_initializing', message: expect.any(String) });
      }
    },
  );

  it('answers /healthz 503 with database: not_ready', async () => {
    const res = await call('GET', '/healthz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', database: 'not_ready' });
  });

  it('answers /api/status 200 with ready: false', async () => {
    const res = await call('GET', '/api/status');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ready: false,
      lastScheduledPoll: null,
      channels: { discord: true, webhook: true, telegram: false },
    });
  });

  it('still serves the OpenAPI document', async () => {
    const res = await call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body['openapi']).toBe('3.1.0');
  });

  it('turns ready without a restart once the migrations are applied (separate command)', async () => {
    const output = migrateDatabase(stack.database.url);
    expect(output).toContain('alerts: applied');
    await eventually(async () => (await call('GET', '/healthz')).status === 200, 15000, '/healthz 200');
    expect((await call('GET', '/healthz')).body).toEqual({ status: 'ok', database: 'ready' });
    expect((await call('GET', '/api/status')).body).toMatchObject({ ready: true });
    const { token } = await newAccount(call);
    const me = await call('GET', '/api/me', { token });
    expect(me.status).toBe(200);
  });

  it('answers the Telegram link 503 telegram_not_configured when no bot is configured', async () => {
    const { token } = await newAccount(call);
    const res = await call('POST', '/api/telegram/link', { token });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'telegram_not_configured' });
  });
});

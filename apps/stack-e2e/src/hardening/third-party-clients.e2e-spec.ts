import { mcpResource } from '@paper/contracts';
import { sourceAddresses, startTestStack, type TestStack } from '@paper/dev-stack';
import { signStackToken } from '../mcp/stack-token';
import { fuzzDocument, type FuzzTarget } from './openapi-fuzz';
import { REGISTRATION_DOCUMENT } from './registration-document';
import { redoclyLint } from './third-party-tools';

const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };
/** The fuzzer's callers: 64 loopback addresses and 8 wallets, so every per-caller limit stays at its default. */
const callers = sourceAddresses(64, 3000);
const WALLETS = 8;

/**
 * Both services and the authorization server against clients and suites nobody here wrote: Redocly lint
 * of both OpenAPI documents and a fuzz suite generated from the OpenAPI documents and the registration endpoint (no answer of 500 or above,
 * every error in its documented shape).
 */
describe('third-party clients: Redocly, schema-driven fuzzing', () => {
  let stack: TestStack;
  const docs: { tools?: Record<string, unknown>; alerts?: Record<string, unknown> } = {};

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['venue-sim', 'trading-executor', 'oauth-server', 'tools-gateway', 'mcp-server', 'alerts-api'],
    });
    docs.tools = (await (await fetch(`${stack.baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
    docs.alerts = (await (await fetch(`${stack.alertsUrl}/openapi.json`)).json()) as Record<string, unknown>;
  });

  afterAll(async () => {
    await callers.close();
    await stack?.stop();
  });

  it.each(['tools', 'alerts'] as const)('Redocly lint of the %s OpenAPI document: no errors', async (name) => {
    const result = await redoclyLint(name, docs[name]);
    expect(result.problems.filter((p) => p.startsWith('error'))).toEqual([]);
    expect(result.errors).toBe(0);
  });

  it('fuzzes every operation of both OpenAPI documents and the registration endpoint: no 5xx, every error in its documented shape', async () => {
    const tokens = await Promise.all(
      Array.from({ length: WALLETS }, (_, i) =>
        signStackToken(stack, {
          wallet: `0x${'f1'.repeat(19)}${String(i).padStart(2, '0')}`,
          audience: mcpResource(stack.baseUrl),
          scope: 'trade:read trade:write',
        }),
      ),
    );
    let turn = 0;
    const account = (await (await callers.fetch(`${stack.alertsUrl}/api/accounts`, { method: 'POST' })).json()) as {
      token: string;
    };
    const targets: FuzzTarget[] = [
      {
        name: 'tools',
        baseUrl: stack.baseUrl,
        doc: docs.tools!,
        credentials: () => ({ authorization: `Bearer ${tokens[turn++ % WALLETS]!}` }),
        fetch: callers.fetch,
      },
      {
        name: 'alerts',
        baseUrl: stack.alertsUrl,
        doc: docs.alerts!,
        credentials: () => ({ authorization: `Bearer ${account.token}` }),
        headers: (path) => (path === '/mcp' ? MCP_ACCEPT : {}),
        fetch: callers.fetch,
      },
      {
        name: 'registration',
        baseUrl: stack.baseUrl,
        doc: REGISTRATION_DOCUMENT,
        credentials: () => ({}),
        fetch: callers.fetch,
      },
    ];
    const started = Date.now();
    const outcomes = [];
    for (const target of targets) outcomes.push({ name: target.name, ...(await fuzzDocument(target)) });
    const findings = outcomes.flatMap((o) => o.findings);
    expect(findings.slice(0, 30)).toEqual([]);
    const requests = outcomes.reduce((sum, o) => sum + o.requests, 0);
    expect(requests).toBeGreaterThan(1000);
    // Bounded: the whole sweep stays well within the suite's time.
    expect(Date.now() - started).toBeLessThan(240_000);
  });
});

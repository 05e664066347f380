import { callers } from '../../tools/tool-test-kit';
import type { FaultLab } from './fault-lab';

/** One request to one app that needs PostgreSQL or Redis to answer it, and what came back. */
export interface ProbeAnswer {
  app: string;
  request: string;
  status: number;
  ms: number;
  retryAfter: string | null;
}

interface Probe {
  app: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Requests every HTTP app serves from its storage: the tool API, MCP, the token endpoint, the alerts API. */
function probes(lab: FaultLab): Probe[] {
  const token = lab.traders[0]!.token;
  return [
    { app: 'tools-gateway', method: 'GET', path: '/api/v1/me', headers: { authorization: `Bearer ${token}` } },
    { app: 'tools-gateway', method: 'GET', path: '/api/v1/tools/get_leaderboard' },
    {
      app: 'mcp-server',
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_leaderboard', arguments: {} },
      }),
    },
    {
      app: 'oauth-server',
      method: 'POST',
      path: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body:
        'grant_type=authorization_code&code=probe&client_id=probe&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&code_verifier=' +
        'a'.repeat(43),
    },
    {
      app: 'alerts-api',
      method: 'GET',
      path: '/api/me',
      headers: { authorization: 'Bearer probe-token-that-is-not-an-account' },
    },
  ];
}

/**
 * Sends every probe straight to its app (no edge in between), each from the next source address, and records the
 * answers.
 */
export async function probeApps(lab: FaultLab): Promise<ProbeAnswer[]> {
  const out: ProbeAnswer[] = [];
  for (const p of probes(lab)) {
    const started = Date.now();
    let status = 0;
    let retryAfter: string | null = null;
    try {
      const res = await callers.fetch(`${lab.stack.appUrls[p.app]}${p.path}`, {
        method: p.method,
        headers: p.headers,
        body: p.body,
        signal: AbortSignal.timeout(15_000),
      });
      await res.text();
      status = res.status;
      retryAfter = res.headers.get('retry-after');
    } catch {
      status = 0;
    }
    out.push({ app: p.app, request: `${p.method} ${p.path}`, status, ms: Date.now() - started, retryAfter });
  }
  return out;
}

/** Probe answers that break the rules: a 5xx other than 502/503, no answer, or a 502/503 without Retry-After. */
export function badProbeAnswers(answers: ProbeAnswer[]): ProbeAnswer[] {
  return answers.filter(
    (a) =>
      a.status === 0 ||
      (a.status >= 500 && a.status !== 502 && a.status !== 503) ||
      ((a.status === 502 || a.status === 503) && !a.retryAfter),
  );
}

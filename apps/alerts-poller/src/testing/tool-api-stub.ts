import { type FakeServer, json, startFakeServer } from '@paper/dev-stack';

/**
 * What the stand-in tool API answers: `data` per tool (an Error answers 502; a function may answer later), and a log of
 * the calls.
 */
export interface ToolApiStub extends FakeServer {
  data: Record<string, unknown | ((query: URLSearchParams) => unknown)>;
  calls: { tool: string; query: string }[];
}

export async function startToolApiStub(): Promise<ToolApiStub> {
  const data: ToolApiStub['data'] = {};
  const calls: ToolApiStub['calls'] = [];
  const server = await startFakeServer(async (req, res) => {
    const tool = /^\/api\/v1\/tools\/(\w+)$/.exec(req.path)?.[1];
    if (!tool || !(tool in data))
      return json(res, 404, { ok: false, error: { code: 'unknown_tool', message: 'no such tool' } });
    calls.push({ tool, query: req.query.toString() });
    const entry = data[tool];
    const value = typeof entry === 'function' ? await (entry as (q: URLSearchParams) => unknown)(req.query) : entry;
    if (value instanceof Error)
      return json(res, 502, { ok: false, error: { code: 'upstream_unavailable', message: value.message } });
    return json(res, 200, { ok: true, summary: 'stub', data: value });
  });
  return { ...server, data, calls };
}

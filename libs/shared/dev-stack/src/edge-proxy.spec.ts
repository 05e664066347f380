import http, { type Server } from 'node:http';
import { discardUnreadBody } from '@paper/nest-infra';
import type { AddressInfo } from 'node:net';
import { serverPort, startEdgeProxy } from './edge-proxy';
import { sourceAddresses } from './source-addresses';

/**
 * An app stand-in: `/stream` holds an event stream open (`open()` counts them), `/upload` refuses bodies
 * over 1 KB before reading them (as the apps do), `/who` echoes the forwarded address.
 */
async function startApp(): Promise<{ server: Server; url: string; open: () => number }> {
  let streams = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/stream') {
      streams += 1;
      res.once('close', () => (streams -= 1));
      res.writeHead(200, { 'content-type': 'text/event-stream', connection: 'close' });
      res.write('retry: 1000\n\n');
      return;
    }
    if (req.url === '/upload' && Number(req.headers['content-length']) > 1024) {
      discardUnreadBody(req, res);
      res.writeHead(413, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error: { code: 'payload_too_large', message: 'too large' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ forwardedFor: req.headers['x-forwarded-for'] ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => streams,
  };
}

async function until(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the edge proxy of the local stack', () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  let edge: Server;
  let base: string;
  const callers = sourceAddresses(4);

  beforeAll(async () => {
    app = await startApp();
    edge = await startEdgeProxy(() => app.url, 0, { maxSocketsPerApp: 8, maxQueuedPerApp: 2, queueTimeoutMs: 500 });
    base = `http://127.0.0.1:${serverPort(edge)}`;
  });
  afterAll(async () => {
    await callers.close();
    edge.closeAllConnections();
    app.server.closeAllConnections();
    await new Promise((r) => edge.close(r));
    await new Promise((r) => app.server.close(r));
  });

  it('closes the app connection of every stream its client abandons, so the pool never fills', async () => {
    for (let round = 0; round < 3; round += 1) {
      const streams = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const abort = new AbortController();
          const res = await callers.from(i)(`${base}/stream`, { signal: abort.signal });
          const reader = res.body!.getReader();
          const first = await reader.read();
          expect(Buffer.from(first.value!).toString()).toContain('retry:');
          return abort;
        }),
      );
      expect(app.open()).toBeGreaterThanOrEqual(8);
      for (const s of streams) s.abort();
      await until('the app side of every abandoned stream closed', () => app.open() === 0);
    }
    // 24 streams went through a pool of 8: an ordinary request still gets through.
    expect((await callers.fetch(`${base}/who`)).status).toBe(200);
  });

  it('answers 503 with Retry-After, in the service shape, when the wait for an app connection is too long', async () => {
    const held = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const abort = new AbortController();
        const res = await callers.fetch(`${base}/stream`, { signal: abort.signal });
        await res.body!.getReader().read();
        return abort;
      }),
    );
    try {
      const res = await callers.fetch(`${base}/who`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toEqual({ ok: false, error: { code: 'unavailable', message: expect.any(String) } });
    } finally {
      for (const h of held) h.abort();
    }
    await until('the held streams closed', () => app.open() === 0);
  });

  it('passes an early 413 through for a 2 MB body, never a 502', async () => {
    const body = 'x'.repeat(2 * 1024 * 1024);
    for (let i = 0; i < 20; i += 1) {
      const res = await callers.fetch(`${base}/upload`, { method: 'POST', body });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'payload_too_large' } });
    }
  });

  it('answers a URL over 16 KB with 431 in the service shape', async () => {
    const res = await callers.fetch(`${base}/who?q=${'a'.repeat(17 * 1024)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({
      ok: false,
      error: { code: 'request_header_fields_too_large', message: expect.any(String) },
    });
  });

  it('replaces X-Forwarded-For from a caller with the caller’s address', async () => {
    const res = await callers.from(1)(`${base}/who`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await res.json()).toEqual({ forwardedFor: callers.addresses[1] });
  });
});

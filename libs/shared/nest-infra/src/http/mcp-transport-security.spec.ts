import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackOrigin, mcpOriginPolicy, mcpTransportSecurity } from './mcp-transport-security';

/** Sends a request with the Host and Origin headers a browser (or an attacker's page) would send. */
function send(
  port: number,
  headers: Record<string, string>,
  method = 'POST',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('MCP transport security (Host and Origin, DNS-rebinding protection)', () => {
  it('admits the own origin, the configured origins and, in development only, loopback origins', () => {
    const production = mcpOriginPolicy({
      publicBaseUrl: 'https://perps.example.com',
      allowedOrigins: ['https://app.example.org/'],
      development: false,
    });
    expect(production('https://perps.example.com')).toBe(true);
    expect(production('https://app.example.org')).toBe(true);
    expect(production('http://localhost:6274')).toBe(false);
    expect(production('null')).toBe(false);
    const development = mcpOriginPolicy({
      publicBaseUrl: 'http://localhost:8080',
      allowedOrigins: [],
      development: true,
    });
    expect(development('http://localhost:6274')).toBe(true);
    expect(development('http://127.0.0.1:3000')).toBe(true);
    expect(development('http://evil.example.com')).toBe(false);
    expect(isLoopbackOrigin('http://[::1]:8080')).toBe(true);
    expect(isLoopbackOrigin('http://localhost.evil.com')).toBe(false);
  });

  describe('in production', () => {
    let server: http.Server;
    let port: number;
    beforeAll(async () => {
      const app = express();
      app.use(
        mcpTransportSecurity({
          publicBaseUrl: 'https://perps.example.com',
          allowedOrigins: ['https://app.example.org'],
          development: false,
        }),
      );
      app.all('/mcp', (_req, res) => void res.status(200).json({ ok: true }));
      server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((r) => server.close(r)));

    it('refuses a foreign Host and a foreign Origin with 403 as JSON-RPC errors', async () => {
      const host = await send(port, { host: 'evil.example.com' });
      expect(host.status).toBe(403);
      expect(JSON.parse(host.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect((await send(port, { host: 'localhost:8080' })).status).toBe(403);
      const origin = await send(port, { host: 'perps.example.com', origin: 'http://evil.example.com' });
      expect(origin.status).toBe(403);
      expect(JSON.parse(origin.body).error.message).toContain('MCP_ALLOWED_ORIGINS');
      expect(origin.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('keeps refusing a foreign Host after the public one was accepted (and remembered)', async () => {
      for (let i = 0; i < 3; i += 1) expect((await send(port, { host: 'perps.example.com' })).status).toBe(200);
      const foreign = await send(port, { host: 'evil.example.com' });
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.body).error.message).toBe('Invalid Host: evil.example.com');
      expect((await send(port, { host: 'perps.example.com:443' })).status).toBe(200);
    });

    it('serves requests without Origin and admitted origins, with CORS for exactly those origins', async () => {
      expect((await send(port, { host: 'perps.example.com' })).status).toBe(200);
      const admitted = await send(port, { host: 'perps.example.com', origin: 'https://app.example.org' });
      expect(admitted.status).toBe(200);
      expect(admitted.headers['access-control-allow-origin']).toBe('https://app.example.org');
      expect(admitted.headers['vary']).toContain('Origin');
      const preflight = await send(
        port,
        { host: 'perps.example.com', origin: 'https://perps.example.com', 'access-control-request-method': 'POST' },
        'OPTIONS',
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-headers']).toContain('Mcp-Protocol-Version');
      expect(preflight.headers['access-control-allow-headers']).toContain('Mcp-Method, Mcp-Name');
    });
  });
});

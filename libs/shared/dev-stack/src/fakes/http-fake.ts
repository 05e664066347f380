import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  rawBody: string;
}

export type FakeHandler = (req: FakeRequest, res: ServerResponse) => void | Promise<void>;

export interface FakeServer {
  url: string;
  port: number;
  /** `127.0.0.1:<port>`, the form ALERTS_ALLOW_HOSTS takes. */
  hostPort: string;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A loopback HTTP server with the raw body read, for protocol-accurate stand-ins of external services. */
export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      Promise.resolve(
        handler(
          {
            method: req.method ?? 'GET',
            path: url.pathname,
            query: url.searchParams,
            headers: req.headers,
            rawBody: Buffer.concat(chunks).toString('utf8'),
          },
          res,
        ),
      ).catch((error: Error) => {
        if (!res.headersSent) json(res, 500, { message: error.message });
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PacedRelay {
  /** The relay's URL for the target's path (e.g. `http://localhost:41234/mcp`). */
  url: string;
  close(): Promise<void>;
}

/**
 * A relay in front of one service that passes requests on unchanged (method, path, every header
 * including Host and Origin, body) but no faster than `perSecond`: the conformance suite sends its
 * requests as fast as it can, and the services answer a caller over its rate limit with 429 (defaults:
 * 20 requests a second, bursts of 40). Through the relay the suite is one more caller that keeps to the
 * published limit, with the limits left at their defaults.
 */
export async function startPacedRelay(target: string, perSecond: number): Promise<PacedRelay> {
  const to = new URL(target);
  const interval = 1000 / perSecond;
  let nextSlot = 0;
  const server = http.createServer((req, res) => {
    const now = Date.now();
    nextSlot = Math.max(now, nextSlot + interval);
    setTimeout(() => {
      const upstream = http.request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.once('error', () => res.destroy());
      req.pipe(upstream);
    }, nextSlot - now);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${to.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

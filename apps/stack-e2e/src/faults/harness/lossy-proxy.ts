import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy saw of a request, to decide whether its answer may be lost. */
export interface ProxiedRequest {
  method: string;
  path: string;
  body: string;
}

/**
 * An HTTP proxy in front of the stack that loses answers: each request is forwarded and answered in full
 * upstream, then, for the requests `losable` picks, with probability `lossRate` (a seeded generator, so a
 * run can be repeated) the client's connection is cut instead of answering. The caller never learns
 * whether its call took effect, as when a response is lost on the network.
 */
export interface LossyProxy {
  url: string;
  /** Answers cut, and requests forwarded. */
  readonly lost: number;
  readonly forwarded: number;
  close(): Promise<void>;
}

export interface LossyProxyOptions {
  target: string;
  seed: number;
  lossRate: number;
  losable: (req: ProxiedRequest) => boolean;
}

/** A small seeded generator (mulberry32): the same seed gives the same losses. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

export async function startLossyProxy(options: LossyProxyOptions): Promise<LossyProxy> {
  const random = seededRandom(options.seed);
  const counts = { lost: 0, forwarded: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers[name] = value;
      const method = req.method ?? 'GET';
      const seen = { method, path: req.url ?? '/', body };
      void (async () => {
        try {
          const upstream = await fetch(`${options.target}${seen.path}`, {
            method,
            headers,
            body: method === 'GET' || method === 'HEAD' ? undefined : body,
            redirect: 'manual',
          });
          const answer = Buffer.from(await upstream.arrayBuffer());
          counts.forwarded += 1;
          if (options.losable(seen) && random() < options.lossRate) {
            counts.lost += 1;
            req.socket.destroy();
            return;
          }
          const out: Record<string, string> = {};
          upstream.headers.forEach((value, name) => {
            if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
          });
          res.writeHead(upstream.status, out);
          res.end(answer);
        } catch {
          req.socket.destroy();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get lost() {
      return counts.lost;
    },
    get forwarded() {
      return counts.forwarded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

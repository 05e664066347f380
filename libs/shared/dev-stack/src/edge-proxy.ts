import { alertsRouteFor, routeFor } from '@paper/contracts';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Resolve = (pathname: string) => string | undefined;

/** How the edge words its own errors: the tool API's envelope, or the alerts service's `{ code, message }`. */
export type EdgeErrorStyle = 'tool-envelope' | 'alerts';

function errorBody(style: EdgeErrorStyle, code: string, message: string): string {
  return JSON.stringify(style === 'alerts' ? { code, message } : { ok: false, error: { code, message } });
}

/**
 * A small reverse proxy that mirrors the Kubernetes Ingress on one local port: it forwards each request
 * to the app that owns its path (see PUBLIC_ROUTES) and answers 404 for anything else.
 */
export function startEdgeProxy(
  resolve: Resolve,
  port: number,
  host = '127.0.0.1',
  style: EdgeErrorStyle = 'tool-envelope',
): Promise<Server> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => forward(req, res, resolve, agent, style));
  server.keepAliveTimeout = 65_000;
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolvePromise(server));
  });
}

export function serverPort(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/** Routes the public base URL by the shared table; `targets` maps app name to its local origin. */
export function publicResolver(targets: Record<string, string>): Resolve {
  return (pathname) => {
    const app = routeFor(pathname);
    return app ? targets[app] : undefined;
  };
}

/** Routes the alerts base URL by its shared table (ALERTS_ROUTES), as the alerts Ingress does. */
export function alertsResolver(targets: Record<string, string>): Resolve {
  return (pathname) => {
    const app = alertsRouteFor(pathname);
    return app ? targets[app] : undefined;
  };
}

function forward(
  req: IncomingMessage,
  res: ServerResponse,
  resolve: Resolve,
  agent: http.Agent,
  style: EdgeErrorStyle,
): void {
  const url = new URL(req.url ?? '/', 'http://edge');
  const target = resolve(url.pathname);
  if (!target) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(errorBody(style, 'not_found', `No service is routed at ${url.pathname}.`));
    return;
  }
  const origin = new URL(target);
  const headers = {
    ...req.headers,
    'x-forwarded-host': req.headers.host ?? '',
    'x-forwarded-proto': 'http',
    'x-forwarded-for': req.socket.remoteAddress ?? '',
  };
  const upstream = http.request(
    { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers, agent },
    (upRes) => {
      // An answer before the whole request body arrived (a refusal of a large or unsupported body): the
      // rest is not forwarded, and neither connection is reused, as a proxy in front of the apps does.
      const early = !req.complete;
      const headers = { ...upRes.headers };
      if (early) {
        headers['connection'] = 'close';
        delete headers['keep-alive'];
      }
      res.writeHead(upRes.statusCode ?? 502, headers);
      upRes.pipe(res);
      if (early) {
        upRes.once('end', () => {
          req.unpipe(upstream);
          upstream.destroy();
        });
      }
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'application/json' });
    }
    res.end(errorBody(style, 'bad_gateway', 'The service behind this route is not answering yet; retry shortly.'));
  });
  req.pipe(upstream);
}

import { alertsRouteFor, routeFor } from '@paper/contracts';
import { answerClientErrors, type ErrorStyle, errorBody } from '@paper/nest-infra';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Resolve = (pathname: string) => string | undefined;

/** How the edge words its own errors: the tool API's envelope, or the alerts service's `{ code, message }`. */
export type EdgeErrorStyle = ErrorStyle;

/**
 * The address the edge connects to the apps from (they listen on 127.0.0.1, so connections to them come
 * from it): the one proxy the apps of the local stack trust.
 */
export const EDGE_ADDRESS = '127.0.0.1';

export interface EdgeOptions {
  host?: string;
  style?: EdgeErrorStyle;
  /** Connections to one app at a time (streams included); further requests wait in a queue. */
  maxSocketsPerApp?: number;
  /** Requests that may wait for a connection to one app; beyond that, 503 at once. */
  maxQueuedPerApp?: number;
  /** How long (ms) a request may wait for a connection to its app before it gets 503. */
  queueTimeoutMs?: number;
  /** How long (ms) an app may take to send the head of its answer before the request gets 504. */
  answerTimeoutMs?: number;
  /**
   * The largest rest of a body (bytes) read and discarded after the app answered early; beyond, the connection closes.
   */
  maxDiscardBytes?: number;
  /**
   * Peers whose X-Forwarded-For is kept and extended (the local apps calling each other through the
   * edge); from anyone else the header is replaced by the peer's address.
   */
  trustedPeers?: readonly string[];
}

const DEFAULTS: Required<EdgeOptions> = {
  host: '127.0.0.1',
  style: 'tool-envelope',
  maxSocketsPerApp: 4096,
  maxQueuedPerApp: 512,
  queueTimeoutMs: 10_000,
  answerTimeoutMs: 60_000,
  maxDiscardBytes: 16 * 1024 * 1024,
  trustedPeers: [EDGE_ADDRESS],
};

/**
 * A small reverse proxy that mirrors the Kubernetes Ingress on one local port: it forwards each request
 * to the app that owns its path (see PUBLIC_ROUTES) and answers 404 for anything else. It holds an app
 * connection only while its client does (a client that leaves a stream closes the app's side too), bounds
 * the wait for a connection and for an answer, and words its own refusals in the service's error shape.
 */
export function startEdgeProxy(resolve: Resolve, port: number, options: EdgeOptions = {}): Promise<Server> {
  const settings = { ...DEFAULTS, ...options };
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: settings.maxSocketsPerApp,
    maxFreeSockets: 64,
  });
  const waiting = new Map<string, number>();
  const server = http.createServer((req, res) => forward(req, res, { resolve, agent, settings, waiting }));
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server, settings.style);
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, settings.host, () => resolvePromise(server));
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

interface Forwarding {
  resolve: Resolve;
  agent: http.Agent;
  settings: Required<EdgeOptions>;
  /** Requests waiting for a connection, per app origin. */
  waiting: Map<string, number>;
}

function refuse(
  res: ServerResponse,
  style: EdgeErrorStyle,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(errorBody(style, code, message)));
}

function forwardedFor(req: IncomingMessage, trusted: readonly string[]): string {
  const peer = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  return prior && trusted.includes(peer) ? `${String(prior)}, ${peer}` : peer;
}

function forward(req: IncomingMessage, res: ServerResponse, edge: Forwarding): void {
  const { settings } = edge;
  const url = new URL(req.url ?? '/', 'http://edge');
  const target = edge.resolve(url.pathname);
  if (!target) return refuse(res, settings.style, 404, 'not_found', `No service is routed at ${url.pathname}.`);
  const origin = new URL(target);
  const queued = edge.waiting.get(origin.host) ?? 0;
  if (queued >= settings.maxQueuedPerApp)
    return refuse(res, settings.style, 503, 'unavailable', 'The service behind this route is busy; retry shortly.', {
      'retry-after': '1',
    });
  const headers = {
    ...req.headers,
    'x-forwarded-host': req.headers.host ?? '',
    'x-forwarded-proto': 'http',
    'x-forwarded-for': forwardedFor(req, settings.trustedPeers),
  };
  const upstream = http.request({
    host: origin.hostname,
    port: origin.port,
    method: req.method,
    path: req.url,
    headers,
    agent: edge.agent,
  });

  // Waiting for a connection to the app: bounded in count (above) and in time.
  edge.waiting.set(origin.host, queued + 1);
  let connected = false;
  const connectedNow = () => {
    if (connected) return;
    connected = true;
    clearTimeout(queueTimer);
    edge.waiting.set(origin.host, (edge.waiting.get(origin.host) ?? 1) - 1);
  };
  const queueTimer = setTimeout(() => {
    connectedNow();
    upstream.destroy();
    refuse(res, settings.style, 503, 'unavailable', 'The service behind this route is busy; retry shortly.', {
      'retry-after': '1',
    });
  }, settings.queueTimeoutMs);
  upstream.once('socket', connectedNow);
  upstream.once('close', connectedNow);

  // The head of the answer must come in time (a stream's head comes at once; its body may last).
  const answerTimer = setTimeout(() => {
    upstream.destroy();
    refuse(res, settings.style, 504, 'gateway_timeout', 'The service behind this route did not answer in time.');
  }, settings.answerTimeoutMs);

  // The client left (a stream abandoned, a request cancelled): the app's side closes too.
  res.once('close', () => {
    clearTimeout(answerTimer);
    if (!res.writableFinished) upstream.destroy();
  });

  upstream.once('response', (upRes) => {
    clearTimeout(answerTimer);
    // An answer before the whole request body arrived (a refusal of a large or unsupported body): the
    // rest is read and discarded (up to a bound) rather than forwarded, so the client reads the answer
    // instead of a reset; the app's connection, in the middle of a request, is not reused.
    const early = !req.complete;
    const answerHeaders = { ...upRes.headers };
    if (early) {
      discardRest(req, upstream, settings.maxDiscardBytes);
      delete answerHeaders['connection'];
      delete answerHeaders['keep-alive'];
      upRes.once('end', () => upstream.destroy());
    }
    res.writeHead(upRes.statusCode ?? 502, answerHeaders);
    upRes.pipe(res);
    // The app ended its answer abruptly (it stopped, a stream broke): the client's answer breaks off too.
    upRes.once('close', () => {
      if (!upRes.complete) res.destroy();
    });
  });
  upstream.on('error', () => {
    clearTimeout(answerTimer);
    if (res.writableEnded || res.destroyed) return;
    refuse(
      res,
      settings.style,
      502,
      'bad_gateway',
      'The service behind this route is not answering yet; retry shortly.',
    );
  });
  req.pipe(upstream);
}

/**
 * Stops forwarding the request body and reads the rest into nothing; past `maxBytes` the client's connection closes.
 */
function discardRest(req: IncomingMessage, upstream: http.ClientRequest, maxBytes: number): void {
  req.unpipe(upstream);
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxBytes) req.socket.destroy();
  });
  req.resume();
}

import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the exchange tool API (the alerts services' EXCHANGE_API_URL),
 * so a test can hold an answer the poller is waiting for: the poller has made its call and the upstream
 * has answered, but the answer is not delivered. A poller killed at that moment dies in the middle of
 * a pass, after it fetched and before it could commit.
 */
export interface ToolApiGate {
  url: string;
  /** Where requests go (the stack's public base URL, known once the stack runs). */
  setTarget(url: string): void;
  /** Holds the next answer whose path and body match; `reached` resolves once one is held. */
  holdAnswer(match: (path: string, body: string) => boolean): { reached: Promise<void> };
  /** Stops holding and hands the held answers out (to clients that may be gone). */
  release(): void;
  close(): Promise<void>;
}

/** An event stream passes through as it comes (never held). */
async function streamThrough(url: string, req: http.IncomingMessage, res: ServerResponse): Promise<void> {
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  const lastEventId = req.headers['last-event-id'];
  const answer = await fetch(url, {
    headers: {
      accept: 'text/event-stream',
      ...(typeof lastEventId === 'string' ? { 'last-event-id': lastEventId } : {}),
    },
    signal: abort.signal,
  });
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/event-stream' });
  try {
    for await (const chunk of answer.body ?? []) res.write(chunk);
  } catch {
    // The client or the upstream went away.
  }
  res.end();
}

export async function startToolApiGate(): Promise<ToolApiGate> {
  let target: string | undefined;
  let rule: { match: (path: string, body: string) => boolean; reached: () => void } | undefined;
  const held: { res: ServerResponse; status: number; type: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      void (async () => {
        if (!target)
          return void res
            .writeHead(502, { 'content-type': 'application/json' })
            .end('{"ok":false,"error":{"code":"upstream_unavailable","message":"gate has no target yet"}}');
        try {
          if ((req.url ?? '').startsWith('/api/v1/events')) return await streamThrough(`${target}${req.url}`, req, res);
          const answer = await fetch(`${target}${req.url ?? '/'}`, {
            method: req.method,
            headers: { accept: 'application/json' },
            redirect: 'manual',
          });
          const body = await answer.text();
          const type = answer.headers.get('content-type') ?? 'application/json';
          if (rule?.match(req.url ?? '/', body)) {
            held.push({ res, status: answer.status, type, body });
            rule.reached();
            rule = undefined;
            return;
          }
          res.writeHead(answer.status, { 'content-type': type }).end(body);
        } catch (error) {
          if (!res.headersSent)
            res.writeHead(502, { 'content-type': 'application/json' }).end(
              JSON.stringify({
                ok: false,
                error: { code: 'upstream_unavailable', message: (error as Error).message },
              }),
            );
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    setTarget: (url) => {
      target = url.replace(/\/+$/, '');
    },
    holdAnswer: (match) => {
      let reached!: () => void;
      const promise = new Promise<void>((resolve) => (reached = resolve));
      rule = { match, reached };
      return { reached: promise };
    },
    release: () => {
      rule = undefined;
      for (const h of held.splice(0))
        if (!h.res.destroyed) h.res.writeHead(h.status, { 'content-type': h.type }).end(h.body);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

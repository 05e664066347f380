/**
 * SIGTERM drains: a request already in flight when the signal arrives still gets a whole answer (never a
 * reset connection), and the process exits 0 once it has been sent. venue-sim's `timeout` failure mode
 * holds a request open, which makes "in flight" deterministic; on shutdown the venue answers what it
 * holds instead of making the drain wait for SIM_HANG_MS.
 */
import { startTestStack, type TestStack } from '@paper/dev-stack';
import net from 'node:net';

const HANG_MS = 60000;

/** A raw HTTP/1.1 connection: what it received, and whether (and when) the server closed it. */
function rawConnection(url: string): { socket: net.Socket; text: () => string; closed: Promise<number> } {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  return { socket, text: () => received, closed };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('graceful shutdown', () => {
  let stack: TestStack;
  let venue: string;

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['venue-sim'], migrate: false, env: { SIM_HANG_MS: String(HANG_MS) } });
    venue = stack.appUrls['venue-sim']!;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers a request in flight before exiting 0 on SIGTERM', async () => {
    const fail = await fetch(`${venue}/control/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'timeout', count: 1 }),
    });
    expect(fail.status).toBeLessThan(300);
    const started = Date.now();
    const inFlight = fetch(`${venue}/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'allMids' }),
    }).then(async (res) => ({ status: res.status, body: await res.text(), at: Date.now() }));
    // the request is held once the venue reports it
    const deadline = Date.now() + 5000;
    let held = 0;
    while (Date.now() < deadline && held === 0) {
      const state = (await (await fetch(`${venue}/control/state`)).json()) as { heldRequests: number };
      held = state.heldRequests;
      if (held === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(held).toBe(1);
    const exit = stack.stopApp('venue-sim');
    const answer = await inFlight;
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'service_unavailable' });
    expect(answer.at - started).toBeLessThan(HANG_MS);
    expect(await exit).toBe(0);
  });

  it('closes keep-alive connections on SIGTERM: idle ones at once, busy ones after an answer with Connection: close', async () => {
    if (stack.pid('venue-sim') === undefined || (await fetch(`${venue}/livez`).catch(() => null)) === null)
      await stack.restartApp('venue-sim');
    const idle = rawConnection(venue);
    idle.socket.write('GET /livez HTTP/1.1\r\nHost: venue\r\n\r\n');
    await until(() => idle.text().includes('"status":"ok"'));
    expect(idle.text()).toMatch(/connection: keep-alive/i);
    await fetch(`${venue}/control/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'timeout', count: 1 }),
    });
    const busy = rawConnection(venue);
    const body = JSON.stringify({ type: 'allMids' });
    busy.socket.write(
      `POST /info HTTP/1.1\r\nHost: venue\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await until(
      async () =>
        ((await (await fetch(`${venue}/control/state`)).json()) as { heldRequests: number }).heldRequests === 1,
    );
    const exit = stack.stopApp('venue-sim');
    const idleClosedAt = await idle.closed;
    const busyClosedAt = await busy.closed;
    expect(busy.text()).toMatch(/^HTTP\/1\.1 503/);
    expect(busy.text()).toMatch(/connection: close/i);
    expect(idleClosedAt).toBeLessThanOrEqual(busyClosedAt);
    expect(await exit).toBe(0);
  });
});

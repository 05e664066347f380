/**
 * SIGTERM drains: a request already in flight when the signal arrives still gets a whole answer (never a
 * reset connection), and the process exits 0 once it has been sent. venue-sim's `timeout` failure mode
 * holds a request open, which makes "in flight" deterministic; on shutdown the venue answers what it
 * holds instead of making the drain wait for SIM_HANG_MS.
 */
import { startTestStack, type TestStack } from '@paper/dev-stack';

const HANG_MS = 60000;

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
});

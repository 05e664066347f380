import { type SourceAddresses, sourceAddresses, startTestStack, type TestStack } from '@paper/dev-stack';
import { establishedOn } from './tcp-sockets';

const STREAMS = 1000;
/** 10 streams per address: under every per-caller limit at its default. */
const ADDRESSES = 100;
/** Streams open at once (one wave); every wave is abandoned before the next opens. */
const WAVE = 200;

/** Polls `read` until `done` holds for its value, with a deadline; resolves to the last value. */
async function settle(read: () => number, done: (n: number) => boolean, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let value = read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    value = read();
  }
  return value;
}

/**
 * `npm start`'s edge in front of the gateway, every limit at its default: clients that open an event
 * stream, read its first frame and leave must not leave anything open behind them, at the edge or at
 * the gateway, and the API keeps answering while they come and go.
 */
describe('the edge with 1,000 abandoned event streams', () => {
  let stack: TestStack;
  let callers: SourceAddresses;
  let watcher: SourceAddresses;
  let edge: string;
  let edgePort: number;
  let gatewayPort: number;

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['venue-sim', 'tools-gateway'] });
    edgePort = Number(new URL(stack.baseUrl).port);
    gatewayPort = Number(new URL(stack.appUrls['tools-gateway']!).port);
    edge = `http://127.0.0.1:${edgePort}`;
    callers = sourceAddresses(ADDRESSES);
    watcher = sourceAddresses(1, ADDRESSES);
  });

  afterAll(async () => {
    await callers?.close();
    await watcher?.close();
    await stack?.stop();
  });

  /** Opens a public stream from `address`, waits for its first frame, and returns the way to abandon it. */
  async function openStream(address: number): Promise<() => void> {
    const abort = new AbortController();
    // The first frame comes at once from a healthy edge; a stuck one fails the test instead of stalling it.
    const stuck = setTimeout(() => abort.abort(new Error(`stream from ${address}: no first frame in 10 s`)), 10_000);
    const res = await callers.from(address)(`${edge}/api/v1/events`, { signal: abort.signal });
    if (res.status !== 200) throw new Error(`stream ${address} answered ${res.status}: ${await res.text()}`);
    const first = await res.body!.getReader().read();
    clearTimeout(stuck);
    if (
      !Buffer.from(first.value ?? [])
        .toString('utf8')
        .startsWith('retry:')
    )
      throw new Error('the first frame of the stream is not its retry field');
    return () => abort.abort();
  }

  it('closes every abandoned stream at the edge and at the gateway, and /api/v1/tools answers throughout', async () => {
    // The API is watched from its own address, one request at a time, for the whole test.
    const answers: Array<{ status: number; ms: number }> = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const started = Date.now();
        const status = await watcher
          .fetch(`${edge}/api/v1/tools`, { signal: AbortSignal.timeout(5000) })
          .then(async (res) => (await res.arrayBuffer(), res.status))
          .catch(() => 0);
        answers.push({ status, ms: Date.now() - started });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    let baseline = { edge: 0, gateway: 0 };
    let held = 0;
    let gateway: number;
    let edgeSockets: number;
    let settledMs: number;
    try {
      await settle(
        () => answers.length,
        (n) => n >= 2,
        10_000,
      );
      baseline = { edge: establishedOn(edgePort), gateway: establishedOn(gatewayPort) };
      for (let opened = 0; opened < STREAMS; opened += WAVE) {
        const abandon = await Promise.all(Array.from({ length: WAVE }, (_, i) => openStream((opened + i) % ADDRESSES)));
        // While the wave is open, the gateway holds a connection per stream.
        held = Math.min(held || Infinity, establishedOn(gatewayPort));
        for (const leave of abandon) leave();
      }
      const left = Date.now();
      gateway = await settle(
        () => establishedOn(gatewayPort),
        (n) => n <= baseline.gateway,
        5000,
      );
      edgeSockets = await settle(
        () => establishedOn(edgePort),
        (n) => n <= baseline.edge,
        5000,
      );
      settledMs = Date.now() - left;
    } finally {
      watching = false;
      await watch;
    }

    expect(held).toBeGreaterThanOrEqual(WAVE);

    expect(gateway).toBeLessThanOrEqual(baseline.gateway);
    expect(edgeSockets).toBeLessThanOrEqual(baseline.edge);
    expect(settledMs).toBeLessThanOrEqual(5000);
    expect(answers.length).toBeGreaterThan(5);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
  });
});

import { EXCHANGE_EVENT_TYPES } from '@paper/contracts';
import { EventSource } from 'eventsource';
import { callers } from './tool-test-kit';

/** One frame a stream client received. */
export interface Received {
  type: string;
  id: string;
  data: Record<string, unknown>;
}

const NAMES = [...EXCHANGE_EVENT_TYPES, 'price', 'reset', 'close'];

/**
 * A real EventSource client (the `eventsource` package, the WHATWG API in Node) collecting what it
 * receives; `token` sends a bearer token through the client's own fetch hook. Each stream (and each of
 * its reconnections) comes from the next of the kit's source addresses, or always from `from`.
 */
export function openStream(
  url: string,
  token?: string,
  from?: string,
): { source: EventSource; received: Received[]; errors: unknown[] } {
  const send = from === undefined ? callers.fetch : callers.from(from);
  const received: Received[] = [];
  const errors: unknown[] = [];
  const source = new EventSource(url, {
    fetch: (input, init) =>
      send(input, {
        ...init,
        headers: {
          ...(init?.headers as Record<string, string>),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      }),
  });
  for (const name of NAMES) {
    source.addEventListener(name, (e) =>
      received.push({ type: name, id: e.lastEventId, data: JSON.parse(e.data) as Record<string, unknown> }),
    );
  }
  source.addEventListener('error', (e) => errors.push(e));
  return { source, received, errors };
}

/** Waits until `check` holds for what was received (polling, with a deadline). */
export async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

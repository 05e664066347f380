import dns from 'node:dns';
import http from 'node:http';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';

/** Host names resolve to IPv4 only: a 127.x source address cannot reach `::1` (`localhost` may resolve to it first). */
const ipv4Lookup: LookupFunction = (hostname, options, callback) =>
  dns.lookup(hostname, { ...options, family: 4 }, callback as never);

/** Distinct addresses the helper hands out (127.1.0.1 to 127.255.249.250 would be more; this is plenty). */
const MAX_ADDRESSES = 250 * 256;

/**
 * The `index`-th test caller address in 127.0.0.0/8: 127.1.0.1, 127.1.0.2, ... 127.1.0.250, 127.1.1.1, ...
 * Never 127.0.0.1, the address the local edge and the apps call each other from (their trusted proxy).
 * Linux routes the whole 127.0.0.0/8 to loopback; elsewhere only 127.0.0.1 may exist.
 */
export function loopbackAddress(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_ADDRESSES)
    throw new RangeError(`loopbackAddress: index ${index} is outside 0..${MAX_ADDRESSES - 1}`);
  return `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}`;
}

/**
 * Callers on many loopback source addresses, so per-caller limits (rate limits, connection caps keyed
 * by the client's address) apply per address and a load-shaped test runs with every limit at its default.
 */
export interface SourceAddresses {
  readonly addresses: readonly string[];
  /** `fetch` sending from one address (by index into `addresses`, or the address itself). */
  from(address: number | string): typeof fetch;
  /** `fetch` sending each request from the next address in turn. */
  readonly fetch: typeof fetch;
  /** The address the next request of `fetch` will come from. */
  next(): string;
  /** A `node:http` agent whose connections come from one address. */
  httpAgent(address: number | string): http.Agent;
  /** Closes every connection the helper opened. */
  close(): Promise<void>;
}

/** `count` callers at loopbackAddress(first) ... loopbackAddress(first + count - 1). */
export function sourceAddresses(count: number, first = 0): SourceAddresses {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`sourceAddresses: count ${count} must be positive`);
  const addresses = Array.from({ length: count }, (_, i) => loopbackAddress(first + i));
  const dispatchers = new Map<string, Agent>();
  const agents = new Map<string, http.Agent>();
  let turn = 0;
  const pick = (address: number | string) => (typeof address === 'number' ? addresses[address % count]! : address);
  const from = (address: number | string): typeof fetch => {
    const localAddress = pick(address);
    let dispatcher = dispatchers.get(localAddress);
    if (!dispatcher) {
      dispatcher = new Agent({ localAddress, connect: { lookup: ipv4Lookup } });
      dispatchers.set(localAddress, dispatcher);
    }
    const bound = dispatcher;
    // Node's fetch takes an undici dispatcher (not in the DOM RequestInit type).
    return ((input, init) => fetch(input, { ...init, dispatcher: bound } as RequestInit)) as typeof fetch;
  };
  const next = () => addresses[turn++ % count]!;
  return {
    addresses,
    from,
    fetch: ((input, init) => from(next())(input, init)) as typeof fetch,
    next,
    httpAgent: (address) => {
      const localAddress = pick(address);
      let agent = agents.get(localAddress);
      if (!agent) {
        agent = new http.Agent({ keepAlive: true, localAddress, lookup: ipv4Lookup });
        agents.set(localAddress, agent);
      }
      return agent;
    },
    close: async () => {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
      await Promise.all([...dispatchers.values()].map((d) => d.destroy()));
      dispatchers.clear();
    },
  };
}

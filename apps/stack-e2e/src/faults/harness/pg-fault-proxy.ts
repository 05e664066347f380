import net from 'node:net';

/**
 * A TCP proxy between the apps and PostgreSQL that can refuse new connections and cut existing ones
 * (a restarting or failing-over database, a network partition), without touching the server itself.
 */
export interface PgFaultProxy {
  port: number;
  /** The database URL through the proxy. */
  via(databaseUrl: string): string;
  /** While on, new connections are reset at once. */
  refuse(on: boolean): void;
  /** Resets every connection open through the proxy; resolves to how many there were. */
  cutAll(): number;
  readonly open: number;
  close(): Promise<void>;
}

export async function startPgFaultProxy(
  target: { host: string; port: number } = { host: '127.0.0.1', port: 5432 },
): Promise<PgFaultProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const cutAll = (): number => {
    const n = pairs.size;
    for (const [client, upstream] of [...pairs]) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    pairs.clear();
    return n;
  };
  return {
    port,
    via: (databaseUrl) => {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    refuse: (on) => {
      refusing = on;
    },
    cutAll,
    get open() {
      return pairs.size;
    },
    close: async () => {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

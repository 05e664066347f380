import pg from 'pg';
import type { DataSource } from 'typeorm';

/** How long (ms) opening one PostgreSQL connection may take before the attempt fails (and is retried later). */
export const PG_CONNECT_TIMEOUT_MS = 5000;

/**
 * A node-postgres Client that always has an 'error' listener. A client checked out of the pool emits
 * 'error' when its backend is terminated (57P01 from pg_terminate_backend, a failover or a pooler) or
 * its socket drops; TypeORM listens only while a query runner holds the client, and a second error (the
 * server's message, then "Connection terminated unexpectedly") would otherwise be an unhandled 'error'
 * event that ends the process. The pool discards a client that errored and opens a new one on demand.
 */
export function guardedPgClient(onError: (error: Error) => void): typeof pg.Client {
  return class GuardedPgClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', onError);
    }
  };
}

/**
 * Makes a TypeORM PostgreSQL DataSource (before it is initialized) survive its server: every client is
 * guarded, pool errors are reported instead of thrown, connection attempts are bounded and TCP
 * keep-alive notices a dead peer.
 */
export function guardPostgresDataSource(dataSource: DataSource, report: (error: Error) => void): void {
  const options = dataSource.options as { extra?: Record<string, unknown> };
  dataSource.setOptions({
    poolErrorHandler: report,
    extra: {
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      keepAlive: true,
      ...options.extra,
      Client: guardedPgClient(report),
    },
  } as never);
}

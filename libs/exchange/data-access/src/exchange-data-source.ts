import { DataSource } from 'typeorm';
import { EXCHANGE_ENTITIES } from './entities';
import { EXCHANGE_MIGRATIONS } from './migrations';

export const EXCHANGE_SCHEMA = 'exchange';

export interface DataSourceSettings {
  url: string;
  poolSize?: number;
  applicationName?: string;
}

/**
 * How often (ms) PostgreSQL checks that the client of a running statement is still connected
 * (`client_connection_check_interval`): a process killed in the middle of a transaction has its
 * transaction rolled back and its row locks (an intent batch's claim among them) released within about
 * this long, even while its statement waits for a lock. TCP keep-alive covers a host that disappears.
 */
export const CLIENT_CONNECTION_CHECK_MS = 1000;

/** The one DataSource of the `exchange` schema. Never synchronizes: schema changes go through migrations. */
export function createExchangeDataSource(settings: DataSourceSettings): DataSource {
  return new DataSource({
    type: 'postgres',
    url: settings.url,
    schema: EXCHANGE_SCHEMA,
    entities: EXCHANGE_ENTITIES,
    migrations: EXCHANGE_MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    logging: ['error'],
    extra: {
      max: settings.poolSize ?? 10,
      application_name: settings.applicationName ?? 'exchange',
      keepAlive: true,
      options: `-c client_connection_check_interval=${CLIENT_CONNECTION_CHECK_MS}`,
    },
  });
}

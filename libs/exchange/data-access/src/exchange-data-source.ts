import { DataSource } from 'typeorm';
import { EXCHANGE_ENTITIES } from './entities';
import { EXCHANGE_MIGRATIONS } from './migrations';

export const EXCHANGE_SCHEMA = 'exchange';

export interface DataSourceSettings {
  url: string;
  poolSize?: number;
  applicationName?: string;
}

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
    extra: { max: settings.poolSize ?? 10, application_name: settings.applicationName ?? 'exchange' },
  });
}

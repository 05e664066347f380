import { DataSource } from 'typeorm';
import { ALERTS_ENTITIES } from './entities';
import { ALERTS_MIGRATIONS } from './migrations';

export const ALERTS_SCHEMA = 'alerts';

export interface DataSourceSettings {
  url: string;
  poolSize?: number;
  applicationName?: string;
}

/** The one DataSource of the `alerts` schema. Never synchronizes: schema changes go through migrations. */
export function createAlertsDataSource(settings: DataSourceSettings): DataSource {
  return new DataSource({
    type: 'postgres',
    url: settings.url,
    schema: ALERTS_SCHEMA,
    entities: ALERTS_ENTITIES,
    migrations: ALERTS_MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    logging: ['error'],
    extra: { max: settings.poolSize ?? 10, application_name: settings.applicationName ?? 'alerts' },
  });
}

import { DataSource } from 'typeorm';
import { OAUTH_ENTITIES } from './entities';
import { OAUTH_MIGRATIONS } from './migrations';

export const OAUTH_SCHEMA = 'oauth';

export interface DataSourceSettings {
  url: string;
  poolSize?: number;
  applicationName?: string;
}

/** The one DataSource of the `oauth` schema. Never synchronizes: schema changes go through migrations. */
export function createOauthDataSource(settings: DataSourceSettings): DataSource {
  return new DataSource({
    type: 'postgres',
    url: settings.url,
    schema: OAUTH_SCHEMA,
    entities: OAUTH_ENTITIES,
    migrations: OAUTH_MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    logging: ['error'],
    extra: { max: settings.poolSize ?? 10, application_name: settings.applicationName ?? 'oauth' },
  });
}

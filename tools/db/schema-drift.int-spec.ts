import { createAlertsDataSource } from '@paper/alerts-data';
import { createTestDatabase, type TestDatabase } from '@paper/dev-stack';
import { createExchangeDataSource } from '@paper/exchange-data';
import { createOauthDataSource } from '@paper/oauth-data';
import type { DataSource } from 'typeorm';
import { migrate } from './migrate';

/**
 * The entities describe the migrated schema exactly: every entity's table has the entity's columns, with
 * the same types and nullability, and no other; every table without an entity is named here, with the
 * typed query module that owns it. A migration that changes a table without its entity fails here.
 */
const TABLES_WITHOUT_ENTITY: Record<string, readonly string[]> = {
  exchange: [
    'migrations',
    // libs/exchange/data-access/src/queries/event-log.ts
    'events',
    // @paper/idempotency's PgIdempotencyStore (libs/tools/runtime/src/idempotency)
    'tool_idempotency_keys',
  ],
  oauth: ['migrations'],
  alerts: [
    'migrations',
    // apps/alerts-poller (protocol-poll.service.ts, alert-writer.service.ts)
    'protocol_rule_state',
  ],
};

const SOURCES: Record<string, (url: string) => DataSource> = {
  exchange: (url) => createExchangeDataSource({ url, poolSize: 2 }),
  oauth: (url) => createOauthDataSource({ url, poolSize: 2 }),
  alerts: (url) => createAlertsDataSource({ url, poolSize: 2 }),
};

/** PostgreSQL's name of a column type as TypeORM entities spell it. */
const TYPE_ALIASES: Record<string, string> = {
  varchar: 'character varying',
  'character varying': 'character varying',
  int: 'integer',
  int4: 'integer',
  integer: 'integer',
  int2: 'smallint',
  smallint: 'smallint',
  int8: 'bigint',
  bigint: 'bigint',
  timestamptz: 'timestamp with time zone',
  'timestamp with time zone': 'timestamp with time zone',
  timestamp: 'timestamp without time zone',
  bool: 'boolean',
  boolean: 'boolean',
  jsonb: 'jsonb',
  json: 'json',
  text: 'text',
  uuid: 'uuid',
  numeric: 'numeric',
  decimal: 'numeric',
  'double precision': 'double precision',
  float8: 'double precision',
  bytea: 'bytea',
  char: 'character',
  date: 'date',
};

interface ColumnShape {
  type: string;
  nullable: boolean;
}

describe('entities against the migrated schema (exchange, oauth, alerts)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('schema_drift');
    await migrate(database.url, Object.keys(SOURCES), () => undefined);
  });

  afterAll(() => database.drop());

  it.each(Object.keys(SOURCES))(
    '%s: every table is an entity with the same columns, or a named raw-query table',
    async (schema) => {
      const source = SOURCES[schema]!(database.url);
      await source.initialize();
      try {
        const rows: { table_name: string; column_name: string; data_type: string; is_nullable: 'YES' | 'NO' }[] =
          await source.query(
            `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, column_name`,
            [schema],
          );
        const actual = new Map<string, Record<string, ColumnShape>>();
        for (const r of rows) {
          const table = actual.get(r.table_name) ?? {};
          table[r.column_name] = { type: r.data_type, nullable: r.is_nullable === 'YES' };
          actual.set(r.table_name, table);
        }
        const declared = new Map<string, Record<string, ColumnShape>>();
        for (const entity of source.entityMetadatas) {
          const columns: Record<string, ColumnShape> = {};
          for (const column of entity.columns) {
            const type = typeof column.type === 'string' ? column.type : source.driver.normalizeType(column);
            columns[column.databaseName] = {
              type: TYPE_ALIASES[type] ?? `unknown type ${type}`,
              nullable: column.isNullable,
            };
          }
          declared.set(entity.tableName, columns);
        }
        for (const [table, columns] of declared)
          expect({ table, columns: actual.get(table) ?? 'missing table' }).toEqual({ table, columns });
        const unmodelled = [...actual.keys()].filter((t) => !declared.has(t)).sort();
        expect(unmodelled).toEqual([...TABLES_WITHOUT_ENTITY[schema]!].sort());
      } finally {
        await source.destroy();
      }
    },
  );
});

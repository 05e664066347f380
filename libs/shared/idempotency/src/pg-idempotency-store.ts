import { type QueryExecutor, queryAffected, queryRow, queryRows } from '@paper/sql-rows';
import type { IdempotencyRecord, IdempotencyStore, StoredAnswer } from './idempotency';

interface KeyRow {
  fingerprint: string;
  state: 'running' | 'done';
  status: number | null;
  body: unknown;
  created_at: Date;
}

/**
 * The statements that create a table of idempotency keys (for a migration): the key per caller, the
 * request's fingerprint, the state, the kept answer, and an index for pruning by age.
 */
export function createIdempotencyKeysTable(table: string, createdIndex: string): string[] {
  return [
    `
      CREATE TABLE ${table} (
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint char(64) NOT NULL,
        state varchar(16) NOT NULL,
        status integer,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope, key)
      )`,
    `CREATE INDEX ${createdIndex} ON ${table} (created_at)`,
  ];
}

/**
 * Idempotency keys in a PostgreSQL table `<table>(scope, key, fingerprint, state, status, body,
 * created_at)` with primary key (scope, key) (the alerts schema's `alerts.idempotency_keys`).
 */
export class PgIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: QueryExecutor,
    private readonly table: string,
  ) {
    if (!/^[a-z_]+\.[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  }

  async begin(scope: string, key: string, fingerprint: string): Promise<boolean> {
    const inserted = await queryRows(
      this.db,
      `INSERT INTO ${this.table} (scope, key, fingerprint, state) VALUES ($1, $2, $3, 'running')
         ON CONFLICT DO NOTHING RETURNING key`,
      [scope, key, fingerprint],
    );
    return inserted.length === 1;
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await queryRow<KeyRow>(
      this.db,
      `SELECT fingerprint, state, status, body, created_at FROM ${this.table} WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    if (!row) return undefined;
    return row.state === 'done'
      ? { fingerprint: row.fingerprint, state: 'done', answer: { status: row.status!, body: row.body } }
      : { fingerprint: row.fingerprint, state: 'running', startedAt: row.created_at };
  }

  async takeOver(scope: string, key: string, fingerprint: string, staleMs: number): Promise<boolean> {
    const taken = await queryAffected(
      this.db,
      `UPDATE ${this.table} SET created_at = now() WHERE scope = $1 AND key = $2 AND fingerprint = $3
          AND state = 'running' AND created_at < now() - make_interval(secs => $4::double precision / 1000)`,
      [scope, key, fingerprint, staleMs],
    );
    return taken === 1;
  }

  async complete(scope: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db.query(
      `UPDATE ${this.table} SET state = 'done', status = $3, body = $4::jsonb WHERE scope = $1 AND key = $2`,
      [scope, key, answer.status, JSON.stringify(answer.body ?? null)],
    );
  }

  async release(scope: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM ${this.table} WHERE scope = $1 AND key = $2 AND state = 'running'`, [scope, key]);
  }

  prune(retentionMs: number): Promise<number> {
    return queryAffected(
      this.db,
      `DELETE FROM ${this.table} WHERE created_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [retentionMs],
    );
  }
}

import type { QueryExecutor } from '@paper/sql-rows';
import { createHash } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';

/** One transaction's statements, each prepared once per connection: the executor of the typed query modules. */
export interface Sql extends QueryExecutor {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>;
}

const RETRYABLE = new Set(['40P01', '40001']); // deadlock detected, serialization failure

/** The node-postgres client under a TypeORM query runner once it is connected. */
interface PgClient {
  query(config: {
    name?: string;
    text: string;
    values?: unknown[];
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** At most this many statement texts are prepared (each connection keeps its own plan of each). */
const PREPARED_LIMIT = 256;
const statementNames = new Map<string, string>();

/**
 * The name a statement is prepared under on each connection (a hash of its text), so PostgreSQL parses
 * and plans it once per connection instead of on every call: a transaction runs a dozen statements, and
 * planning the larger ones (the claim's CTEs, the unnest writes) cost more than running them. Every
 * statement text is a constant of the code; past the limit, statements run unprepared.
 */
function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < PREPARED_LIMIT) {
    name = `tx_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

function sqlOf(runner: QueryRunner): Sql {
  const client = (runner as unknown as { databaseConnection?: PgClient }).databaseConnection;
  const run = async <T>(text: string, params?: unknown[]) => {
    if (client) {
      const result = await client.query({ name: statementName(text), text, values: params });
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    }
    const result = await runner.query(text, params, true);
    return { rows: (result.records ?? []) as T[], rowCount: result.affected ?? 0 };
  };
  return { query: run };
}

export function isRetryableDbError(error: unknown): boolean {
  const code =
    (error as { driverError?: { code?: string }; code?: string }).driverError?.code ??
    (error as { code?: string }).code;
  return code !== undefined && RETRYABLE.has(code);
}

/**
 * Runs `work` in one READ COMMITTED transaction; commits on success, rolls back on any error. A
 * deadlock or serialization failure is retried from the start (the work must be re-runnable).
 */
export async function inTransaction<T>(
  dataSource: DataSource,
  work: (sql: Sql) => Promise<T>,
  retries = 5,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.connect();
      await runner.startTransaction();
      const result = await work(sqlOf(runner));
      await runner.commitTransaction();
      return result;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      if (attempt < retries && isRetryableDbError(error)) {
        await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 20 * (attempt + 1))));
        continue;
      }
      throw error;
    } finally {
      await runner.release();
    }
  }
}

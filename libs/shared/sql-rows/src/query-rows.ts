/**
 * What the typed query modules run their SQL on: a TypeORM DataSource, EntityManager or QueryRunner, or
 * a pg client or pool. Each query module names its row type once; this is the one place rows are typed.
 */
export interface QueryExecutor {
  query(text: string, params?: unknown[]): Promise<unknown>;
}

/** Rows of a query, whether the executor returns them directly (TypeORM) or as `{ rows }` (pg). */
export async function queryRows<T>(db: QueryExecutor, text: string, params?: unknown[]): Promise<T[]> {
  const out = (await db.query(text, params)) as T[] | { rows: T[] };
  return Array.isArray(out) ? out : out.rows;
}

/** The first row of a query, or undefined when it returned none. */
export async function queryRow<T>(db: QueryExecutor, text: string, params?: unknown[]): Promise<T | undefined> {
  const [row] = await queryRows<T>(db, text, params);
  return row;
}

/**
 * What the typed query modules run their SQL on: a TypeORM DataSource, EntityManager or QueryRunner, or
 * a pg client or pool. Each query module names its row type once; this is the one place rows are typed.
 */
export interface QueryExecutor {
  query(text: string, params?: unknown[]): Promise<unknown>;
}

/**
 * What the executors return: rows (TypeORM reads and inserts), `[rows, affected]` (TypeORM updates and deletes) or a pg
 * result.
 */
type RawResult<T> = T[] | [T[], number] | { rows: T[]; rowCount: number | null };

/**
 * TypeORM answers UPDATE and DELETE with `[rows, affected]`; rows are objects, never arrays, so the shape is
 * unambiguous.
 */
function isUpdateResult<T>(out: T[] | [T[], number]): out is [T[], number] {
  return out.length === 2 && Array.isArray(out[0]) && typeof out[1] === 'number';
}

function normalise<T>(out: RawResult<T>): { rows: T[]; affected: number } {
  if (!Array.isArray(out)) return { rows: out.rows, affected: out.rowCount ?? out.rows.length };
  if (isUpdateResult(out)) return { rows: out[0], affected: out[1] };
  return { rows: out, affected: out.length };
}

/** Rows of a query (RETURNING rows for writes), whichever executor ran it. */
export async function queryRows<T>(db: QueryExecutor, text: string, params?: unknown[]): Promise<T[]> {
  return normalise((await db.query(text, params)) as RawResult<T>).rows;
}

/** The first row of a query, or undefined when it returned none. */
export async function queryRow<T>(db: QueryExecutor, text: string, params?: unknown[]): Promise<T | undefined> {
  const [row] = await queryRows<T>(db, text, params);
  return row;
}

/** How many rows a write changed (or a read returned), whichever executor ran it. */
export async function queryAffected(db: QueryExecutor, text: string, params?: unknown[]): Promise<number> {
  return normalise(await (db.query(text, params) as Promise<RawResult<unknown>>)).affected;
}

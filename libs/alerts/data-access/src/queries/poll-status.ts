import { type QueryExecutor, queryRow } from '@paper/sql-rows';

/** How one poll pass went, as `alerts.poll_status` keeps it (one row per poll name). */
export interface PollStatusWrite {
  name: string;
  startedAt: Date;
  finishedAt: Date;
  ok: boolean;
  error: string | null;
  durationMs: number;
  details: object;
}

/** The details document of a poll (what the last committed pass left for the next), `{}` before the first pass. */
export async function pollDetails<T extends object>(db: QueryExecutor, name: string): Promise<Partial<T>> {
  const row = await queryRow<{ details: Partial<T> | null }>(
    db,
    `SELECT details FROM alerts.poll_status WHERE name = $1`,
    [name],
  );
  return row?.details ?? {};
}

/**
 * The generation of the poll's details, with its status row locked (FOR UPDATE) until the caller's
 * transaction ends; the row is created first if the poll never ran. Undefined when none was stored.
 */
export async function lockPollGeneration(db: QueryExecutor, name: string): Promise<string | undefined> {
  await db.query(`INSERT INTO alerts.poll_status (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
  const row = await queryRow<{ generation: string | null }>(
    db,
    `SELECT details->>'generation' AS generation FROM alerts.poll_status WHERE name = $1 FOR UPDATE`,
    [name],
  );
  return row?.generation ?? undefined;
}

/** Records a committed pass: its timings, outcome and the details document for the next pass. */
export async function writePollStatus(db: QueryExecutor, p: PollStatusWrite): Promise<void> {
  await db.query(
    `INSERT INTO alerts.poll_status (name, last_started_at, last_finished_at, last_ok, last_error, last_duration_ms, details, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, now())
       ON CONFLICT (name) DO UPDATE SET last_started_at = $2, last_finished_at = $3, last_ok = $4, last_error = $5,
         last_duration_ms = $6, details = $7::jsonb, updated_at = now()`,
    [p.name, p.startedAt, p.finishedAt, p.ok, p.error?.slice(0, 500) ?? null, p.durationMs, JSON.stringify(p.details)],
  );
}

/** Records a pass that failed before it could commit (the details document is left as it was). */
export async function recordPollFailure(
  db: QueryExecutor,
  name: string,
  startedAt: Date,
  error: string,
): Promise<void> {
  await db.query(
    `INSERT INTO alerts.poll_status (name, last_started_at, last_finished_at, last_ok, last_error, last_duration_ms, updated_at)
       VALUES ($1, $2, now(), false, $3, $4, now())
       ON CONFLICT (name) DO UPDATE SET last_started_at = $2, last_finished_at = now(), last_ok = false, last_error = $3, last_duration_ms = $4, updated_at = now()`,
    [name, startedAt, error.slice(0, 500), Date.now() - startedAt.getTime()],
  );
}

/**
 * Socket errors, and PostgreSQL SQLSTATEs of a database that cannot serve: shut down or restarting (57P01-03),
 * dropped (57P04, and 3D000 for the connections made after), too many connections (53300), connection
 * exceptions (08xxx).
 */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '57P04',
  '3D000',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** What node-postgres, TypeORM, ioredis and BullMQ say when their server is unreachable or the connection dropped. */
const OUTAGE_MESSAGES = new RegExp(
  [
    'Connection terminated',
    'connect ECONNREFUSED',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'Client was closed and is not queryable',
    'Cannot use a pool after calling end',
    // TypeORM releases a query runner whose connection failed; the transaction's next statement says so.
    'Query runner already released',
    'Connection is closed',
    'MaxRetriesPerRequest',
    'Reached the max retries per request limit',
    "Stream isn't writeable",
    'Command timed out',
    'Driver not Connected',
    'DataSource is not initialized',
    'Connection pool is not initialized',
    'the database system is (shutting down|starting up|in recovery mode)',
    'terminating connection due to administrator command',
  ].join('|'),
  'i',
);

/**
 * True when an error means PostgreSQL or Redis could not be reached or dropped the connection (an outage
 * that passes by itself), not a bug or a refused request. Work failing this way is retried, never failed
 * for good; requests failing this way answer 503 (502 on the tool API) with Retry-After, never 500.
 */
export function isDependencyOutage(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth += 1) {
    const candidate = e as {
      code?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (OUTAGE_CODES.has(String(candidate.code ?? '')) || OUTAGE_MESSAGES.test(String(candidate.message ?? '')))
      return true;
    // AggregateError (a refused connection to every address of a host) carries one error per address.
    if (Array.isArray(candidate.errors) && candidate.errors.some((inner) => isDependencyOutage(inner))) return true;
    e = candidate.driverError ?? candidate.cause;
  }
  return false;
}

/** Seconds a client should wait before retrying a request that met an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 2;

import { CodedError, ToolErrorCode } from '@paper/contracts';
import { isUpstreamError } from '@paper/upstream';
import { ToolError, toolErrors } from '../errors/tool.error';

/**
 * Socket errors, and PostgreSQL SQLSTATEs of a database that cannot serve: shut down or restarting (57P01-03),
 * dropped (57P04, and 3D000 for the connections made after), too many connections (53300), connection
 * exceptions (08xxx).
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
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
const CONNECTION_MESSAGES = /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Connection is closed|MaxRetriesPerRequest|Driver not Connected|DataSource is not initialized|Reached the max retries per request limit|Stream isn't writeable/i;

/** True for failures of PostgreSQL or Redis being unreachable (the exchange did not answer), not for bugs. */
export function isInfrastructureError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; driverError?: { code?: unknown } } | null;
  if (!e || typeof e !== 'object') return false;
  const code = String(e.code ?? e.driverError?.code ?? '');
  return CONNECTION_CODES.has(code) || CONNECTION_MESSAGES.test(String(e.message ?? ''));
}

/**
 * Maps whatever a handler threw to what the transports render: ToolErrors pass through, upstream
 * failures become 502 upstream_unavailable with retry advice, an unreachable database or Redis becomes
 * 503 exchange_unavailable. Anything else is a bug and is rethrown (500, logged).
 */
export function mapToolError(error: unknown): unknown {
  if (error instanceof ToolError) return error;
  if (isUpstreamError(error)) return toolErrors.upstreamUnavailable(error.message);
  if (error instanceof CodedError) {
    return Object.values(ToolErrorCode).includes(error.code as ToolErrorCode)
      ? new ToolError(error.code as ToolErrorCode, error.message, error.headers)
      : error;
  }
  if (isInfrastructureError(error)) return toolErrors.exchangeUnavailable();
  return error;
}

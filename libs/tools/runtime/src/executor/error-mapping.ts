import { CodedError, ToolErrorCode } from '@paper/contracts';
import { isDependencyOutage } from '@paper/nest-infra';
import { isUpstreamError } from '@paper/upstream';
import { ToolError, toolErrors } from '../errors/tool.error';

/** True for failures of PostgreSQL or Redis being unreachable (the exchange did not answer), not for bugs. */
export const isInfrastructureError = isDependencyOutage;

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

import { CodedError, ToolErrorCode, TOOL_ERROR_STATUS } from '@paper/contracts';

/**
 * Why an upstream call failed: `timeout` (no answer in time), `unavailable` (network error or 5xx after
 * retries), `rate_limited` (429 from the venue, or our own weight budget is spent), `bad_response`
 * (a 4xx, non-JSON, or an unexpected shape).
 */
export type UpstreamErrorKind = 'timeout' | 'unavailable' | 'rate_limited' | 'bad_response';

/** Every failure of the info client. Rendered by the global filter as 502 upstream_unavailable. */
export class UpstreamError extends CodedError<ToolErrorCode.UpstreamUnavailable> {
  constructor(
    readonly kind: UpstreamErrorKind,
    /** Technical detail for logs (not shown to end users). */
    readonly detail: string,
    /** HTTP status of the last answer, when there was one. */
    readonly upstreamStatus?: number,
  ) {
    super(
      ToolErrorCode.UpstreamUnavailable,
      TOOL_ERROR_STATUS[ToolErrorCode.UpstreamUnavailable],
      upstreamMessage(kind),
      {},
    );
  }
}

export function isUpstreamError(value: unknown): value is UpstreamError {
  return value instanceof UpstreamError;
}

function upstreamMessage(kind: UpstreamErrorKind): string {
  switch (kind) {
    case 'timeout':
      return 'The price venue did not answer in time. Please try again shortly.';
    case 'rate_limited':
      return 'The price venue is rate-limiting this service. Please try again shortly.';
    case 'bad_response':
      return 'The price venue sent an answer this service could not read.';
    default:
      return 'The price venue is unavailable. Please try again shortly.';
  }
}

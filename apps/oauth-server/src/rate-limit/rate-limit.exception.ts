import { CodedError } from '@paper/contracts';

export enum RateLimitErrorCode {
  RateLimited = 'rate_limited',
}

/** Too many requests from one client IP (429 with Retry-After). */
export class RateLimitError extends CodedError<RateLimitErrorCode> {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(RateLimitErrorCode.RateLimited, 429, message, { 'Retry-After': String(retryAfterSeconds) });
  }
}

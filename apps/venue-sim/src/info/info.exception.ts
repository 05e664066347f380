import { CodedError } from '@paper/contracts';

export enum InfoErrorCode {
  InvalidRequest = 'invalid_request',
  RateLimited = 'rate_limited',
  InjectedFailure = 'injected_failure',
  NotSimulated = 'not_simulated',
}

/** Errors of POST /info, rendered as `{ code, message }`. */
export class InfoError extends CodedError<InfoErrorCode> {}

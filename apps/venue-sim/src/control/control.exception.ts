import { CodedError } from '@paper/contracts';

export enum ControlErrorCode {
  InvalidRequest = 'invalid_request',
}

/** Errors of the /control API, rendered as `{ code, message }`. */
export class ControlError extends CodedError<ControlErrorCode> {}

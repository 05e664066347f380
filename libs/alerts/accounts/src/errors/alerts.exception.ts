import { ALERTS_ERROR_STATUS, AlertsErrorCode, CodedError } from '@paper/contracts';

/** The one exception of alerts-api: rendered as `{ code, message }` with the code's HTTP status. */
export class AlertsException extends CodedError<AlertsErrorCode> {
  constructor(code: AlertsErrorCode, message: string, headers: Readonly<Record<string, string>> = {}) {
    super(code, ALERTS_ERROR_STATUS[code], message, headers);
  }

  static notFound(what: string): AlertsException {
    return new AlertsException(AlertsErrorCode.NotFound, `No ${what} with this id exists in your account.`);
  }
}

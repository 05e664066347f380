/** Error codes of the wallet-alerts service (`{ code, message }` bodies). */
export enum AlertsErrorCode {
  ValidationFailed = 'validation_failed',
  UnknownKey = 'unknown_key',
  Unauthorized = 'unauthorized',
  NotFound = 'not_found',
  Conflict = 'conflict',
  LimitReached = 'limit_reached',
  RateLimited = 'rate_limited',
  TargetNotAllowed = 'target_not_allowed',
  ServiceInitializing = 'service_initializing',
  ServiceUnavailable = 'service_unavailable',
  UpstreamUnavailable = 'upstream_unavailable',
  MethodNotAllowed = 'method_not_allowed',
  InternalError = 'internal_error',
  TelegramNotConfigured = 'telegram_not_configured',
}

export const ALERTS_ERROR_STATUS: Readonly<Record<AlertsErrorCode, number>> = Object.freeze({
  [AlertsErrorCode.ValidationFailed]: 400,
  [AlertsErrorCode.UnknownKey]: 400,
  [AlertsErrorCode.Unauthorized]: 401,
  [AlertsErrorCode.NotFound]: 404,
  [AlertsErrorCode.Conflict]: 409,
  [AlertsErrorCode.LimitReached]: 409,
  [AlertsErrorCode.RateLimited]: 429,
  [AlertsErrorCode.TargetNotAllowed]: 400,
  [AlertsErrorCode.ServiceInitializing]: 503,
  [AlertsErrorCode.ServiceUnavailable]: 503,
  [AlertsErrorCode.UpstreamUnavailable]: 502,
  [AlertsErrorCode.MethodNotAllowed]: 405,
  [AlertsErrorCode.InternalError]: 500,
  [AlertsErrorCode.TelegramNotConfigured]: 503,
});

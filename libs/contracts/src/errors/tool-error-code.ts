/**
 * Machine-readable error codes of the tool API and the HTTP status each one is served with.
 * 400: invalid arguments or a business rule refused the call; 401: missing or invalid token;
 * 403: token lacks the scope; 404: unknown tool or resource; 405: a method the path does not take
 * (header Allow); 409: a client key (`clientOrderId`, `Idempotency-Key`) already used with other arguments, or
 * its first call is still running; 429: per-caller rate limit;
 * 502: a service outside the exchange the call depends on (the upstream price venue, the authorization
 * server's keys) did not answer or rate-limited the service; 503: the exchange's own storage (PostgreSQL,
 * Redis) is unavailable and nothing was done; retry shortly (both carry Retry-After).
 */
export enum ToolErrorCode {
  InvalidArguments = 'invalid_arguments',
  UnknownParameter = 'unknown_parameter',
  WalletRequired = 'wallet_required',
  Unauthorized = 'unauthorized',
  InvalidToken = 'invalid_token',
  InsufficientScope = 'insufficient_scope',
  ToolNotFound = 'tool_not_found',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  RateLimited = 'rate_limited',
  IdempotencyKeyMismatch = 'idempotency_key_mismatch',
  IdempotencyKeyInProgress = 'idempotency_key_in_progress',
  TradeRefused = 'trade_refused',
  GuardrailExceeded = 'guardrail_exceeded',
  QuoteRequired = 'quote_required',
  QuoteExpired = 'quote_expired',
  QuoteMismatch = 'quote_mismatch',
  QuoteNotFound = 'quote_not_found',
  QuoteUsed = 'quote_used',
  NoTradingSession = 'no_trading_session',
  UpstreamUnavailable = 'upstream_unavailable',
  ExchangeUnavailable = 'exchange_unavailable',
  AuthUnavailable = 'auth_unavailable',
  InternalError = 'internal_error',
}

export const TOOL_ERROR_STATUS: Readonly<Record<ToolErrorCode, number>> = Object.freeze({
  [ToolErrorCode.InvalidArguments]: 400,
  [ToolErrorCode.UnknownParameter]: 400,
  [ToolErrorCode.WalletRequired]: 400,
  [ToolErrorCode.Unauthorized]: 401,
  [ToolErrorCode.InvalidToken]: 401,
  [ToolErrorCode.InsufficientScope]: 403,
  [ToolErrorCode.ToolNotFound]: 404,
  [ToolErrorCode.NotFound]: 404,
  [ToolErrorCode.MethodNotAllowed]: 405,
  [ToolErrorCode.RateLimited]: 429,
  [ToolErrorCode.IdempotencyKeyMismatch]: 409,
  [ToolErrorCode.IdempotencyKeyInProgress]: 409,
  [ToolErrorCode.TradeRefused]: 400,
  [ToolErrorCode.GuardrailExceeded]: 400,
  [ToolErrorCode.QuoteRequired]: 400,
  [ToolErrorCode.QuoteExpired]: 400,
  [ToolErrorCode.QuoteMismatch]: 400,
  [ToolErrorCode.QuoteNotFound]: 400,
  [ToolErrorCode.QuoteUsed]: 400,
  [ToolErrorCode.NoTradingSession]: 400,
  [ToolErrorCode.UpstreamUnavailable]: 502,
  [ToolErrorCode.ExchangeUnavailable]: 503,
  [ToolErrorCode.AuthUnavailable]: 502,
  [ToolErrorCode.InternalError]: 500,
});

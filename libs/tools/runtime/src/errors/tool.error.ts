import { CodedError, TOOL_ERROR_STATUS, ToolErrorCode } from '@paper/contracts';

/**
 * The one exception of the tool runtime: a ToolErrorCode, its HTTP status and a message for the end
 * user that says how to fix the problem. Both transports render it (REST: the envelope with the status;
 * MCP: an error result).
 */
export class ToolError extends CodedError<ToolErrorCode> {
  constructor(code: ToolErrorCode, message: string, headers: Readonly<Record<string, string>> = {}) {
    super(code, TOOL_ERROR_STATUS[code], message, headers);
  }
}

export function isToolError(value: unknown): value is ToolError {
  return value instanceof ToolError;
}

/**
 * Seconds a client should wait before retrying after a 502 or 503 (the venue or the exchange's storage did not answer).
 */
export const RETRY_AFTER_SECONDS = 2;

export const toolErrors = {
  invalid: (message: string) => new ToolError(ToolErrorCode.InvalidArguments, message),
  walletRequired: (tool: string) =>
    new ToolError(
      ToolErrorCode.WalletRequired,
      `${tool} needs a wallet: pass "wallet" (a 0x address of 40 hex digits), or call it on ` +
        `/api/v1/me/tools/${tool} with an OAuth token so the connected wallet is used.`,
    ),
  notFound: (message: string) => new ToolError(ToolErrorCode.NotFound, message),
  exchangeUnavailable: (what = 'The exchange') =>
    new ToolError(ToolErrorCode.ExchangeUnavailable, `${what} did not answer. Please retry in a few seconds.`, {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    }),
  upstreamUnavailable: (message: string) =>
    new ToolError(ToolErrorCode.UpstreamUnavailable, message, { 'Retry-After': String(RETRY_AFTER_SECONDS) }),
  noTradingSession: (detail: string) =>
    new ToolError(
      ToolErrorCode.NoTradingSession,
      `${detail} Reconnect this app and approve a session key with guardrails on the consent page, then try again.`,
    ),
};

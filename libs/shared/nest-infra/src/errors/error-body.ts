/** How an app's errors look on the wire: the tool envelope or the alerts service's `{ code, message }`. */
export type ErrorStyle = 'tool-envelope' | 'alerts';

/** The JSON body of an error in the app's style; server errors also carry the request's id. */
export function errorBody(
  style: ErrorStyle,
  code: string,
  message: string,
  requestId?: string,
): Record<string, unknown> {
  const error = requestId === undefined ? { code, message } : { code, message, requestId };
  return style === 'tool-envelope' ? { ok: false, error } : error;
}

/** JSON-RPC error codes answered at the HTTP level (parse errors, refused requests), as the MCP SDK uses them. */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  serverError: -32000,
} as const;

/** A JSON-RPC error response without a request id (the request was not read, or not accepted). */
export function jsonRpcErrorBody(
  code: number,
  message: string,
  data?: unknown,
  id: string | number | null = null,
): Record<string, unknown> {
  return { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id };
}

import { JSON_RPC, jsonRpcErrorBody } from '../errors/error-body';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JSON-RPC error answer (`-32602 Invalid params`, as MCP specifies) of a `tools/call` request the
 * server cannot run: params missing or not an object, no tool name, arguments that are not an object,
 * or a name that is not one of the server's own tools (names such as `constructor` included). Undefined
 * for every other message, which goes on to the MCP server.
 */
export function refusedToolCall(
  message: unknown,
  isTool: (name: string) => boolean,
): Record<string, unknown> | undefined {
  if (!isObject(message) || message['method'] !== 'tools/call' || !('id' in message)) return undefined;
  const id = typeof message['id'] === 'string' || typeof message['id'] === 'number' ? message['id'] : null;
  const params = message['params'];
  const refuse = (text: string, code: string) =>
    jsonRpcErrorBody(JSON_RPC.invalidParams, `Invalid params: ${text}`, { code }, id);
  if (!isObject(params))
    return refuse('tools/call needs params {"name": <tool name>, "arguments": {...}}.', 'invalid_params');
  const name = params['name'];
  if (typeof name !== 'string')
    return refuse('params.name must be the name of a tool (tools/list lists them).', 'invalid_params');
  if (params['arguments'] !== undefined && !isObject(params['arguments']))
    return refuse('params.arguments must be an object of named arguments.', 'invalid_params');
  if (!isTool(name))
    return refuse(`unknown tool ${JSON.stringify(name.slice(0, 64))}; tools/list lists the tools.`, 'tool_not_found');
  return undefined;
}

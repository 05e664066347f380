import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callers } from '../tools/tool-test-kit';

export const MCP_ACCEPT = 'application/json, text/event-stream';

export interface McpConnection {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

/**
 * The SDK's own client over Streamable HTTP, optionally with an OAuth provider (it then handles 401/403
 * challenges). Its requests, like those of restCall and rawMcpPost, come from the kit's many source
 * addresses in turn, so the per-address limits stay at their defaults.
 */
export async function connectMcp(
  baseUrl: string,
  options: { authProvider?: OAuthClientProvider; token?: string } = {},
): Promise<McpConnection> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    authProvider: options.authProvider,
    requestInit: options.token ? { headers: { Authorization: `Bearer ${options.token}` } } : undefined,
    fetch: callers.fetch,
  });
  const client = new Client({ name: 'stack-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

/** The text of a result's first content item. */
export function resultText(result: CallToolResult): string {
  const first = result.content[0];
  if (!first || first.type !== 'text') throw new Error(`expected a text content item, got ${JSON.stringify(first)}`);
  return first.text;
}

/** A tool call through the SDK client, typed as a CallToolResult. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export interface RestAnswer {
  status: number;
  body: { ok: boolean; summary?: string; data?: Record<string, unknown>; error?: { code: string; message: string } };
}

/** The same tool on the REST family (public, or /me with a token). */
export async function restCall(
  baseUrl: string,
  name: string,
  args: Record<string, unknown> = {},
  token?: string,
): Promise<RestAnswer> {
  const path = token ? `/api/v1/me/tools/${name}` : `/api/v1/tools/${name}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['authorization'] = `Bearer ${token}`;
  const res = await callers.fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(args) });
  return { status: res.status, body: (await res.json()) as RestAnswer['body'] };
}

/** A raw JSON-RPC POST to /mcp (for the HTTP-level answers an SDK client hides). */
export async function rawMcpPost(
  baseUrl: string,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return callers.fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
}

export function toolsCall(id: number, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

import type { Tool } from '@modelcontextprotocol/server';
import { mcpResource } from '@paper/contracts';
import { SERVED_PROTOCOL_VERSIONS } from '@paper/nest-infra';
import { CAPABILITIES, MCP_SERVER_INFO } from '../mcp/mcp-server.factory';
import { buildMcpToolListing } from '../mcp/mcp-tool-listing';

/** At most 100 characters, as the registry accepts. */
const DESCRIPTION = 'Paper-trading BTC and ETH perpetual futures for AI agents: market data, accounts, guarded trading';

/** The registry's `server.json` fields (https://github.com/modelcontextprotocol/registry, generic server.json). */
export interface RegistryServer {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  websiteUrl: string;
  remotes: { type: 'streamable-http'; url: string }[];
}

/** An MCP Server Card (SEP-2127 draft): the registry fields plus what a client learns before connecting. */
export interface ServerCard extends Omit<RegistryServer, 'remotes'> {
  remotes: (RegistryServer['remotes'][number] & {
    supportedProtocolVersions: string[];
    authentication: { required: boolean; schemes: string[] };
  })[];
  capabilities: typeof CAPABILITIES;
  tools: Tool[];
}

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** `perps.example.com` -> `com.example.perps/paper-perps`: the reverse-DNS name of the service at that host. */
function serverName(publicBaseUrl: string): string {
  return `${new URL(publicBaseUrl).hostname.split('.').reverse().join('.')}/${MCP_SERVER_INFO.name}`;
}

/** The registry entry of the service at `publicBaseUrl`, from the same facts as the MCP server's own answers. */
export function registryServer(publicBaseUrl: string): RegistryServer {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: serverName(base),
    title: MCP_SERVER_INFO.title,
    description: DESCRIPTION,
    version: MCP_SERVER_INFO.version,
    websiteUrl: `${base}/docs`,
    remotes: [{ type: 'streamable-http', url: mcpResource(base) }],
  };
}

/**
 * The server card served at `/.well-known/mcp/server-card`: the registry entry, how to authenticate
 * (optional: market tools need no sign-in; OAuth 2.1 for the connected wallet), the capabilities
 * `initialize` and `server/discover` answer, and the tools exactly as `tools/list` lists them (the
 * catalog's entries).
 */
export function serverCard(publicBaseUrl: string): ServerCard {
  const entry = registryServer(publicBaseUrl);
  return {
    ...entry,
    $schema: SERVER_CARD_SCHEMA,
    remotes: entry.remotes.map((remote) => ({
      ...remote,
      supportedProtocolVersions: [...SERVED_PROTOCOL_VERSIONS],
      authentication: { required: false, schemes: ['oauth2'] },
    })),
    capabilities: CAPABILITIES,
    tools: buildMcpToolListing().tools,
  };
}

import { SUPPORTED_SCOPES, mcpResource } from '@paper/contracts';

/** RFC 9728 protected-resource metadata of the MCP endpoint. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name: string;
  resource_documentation: string;
}

/**
 * The metadata MCP clients read after a 401: `resource` is exactly the URL they connect to
 * (`{base}/mcp`, no trailing slash; tokens must carry it as audience), and the authorization server is
 * the base URL (its RFC 8414 metadata is at `/.well-known/oauth-authorization-server`).
 */
export function protectedResourceMetadata(publicBaseUrl: string): ProtectedResourceMetadata {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    resource: mcpResource(base),
    authorization_servers: [base],
    scopes_supported: [...SUPPORTED_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Paper Perps MCP server',
    resource_documentation: `${base}/docs`,
  };
}

import { protectedResourceMetadata } from './protected-resource-metadata';

describe('protected-resource metadata', () => {
  it('names exactly {base}/mcp as the resource and the base URL as the authorization server', () => {
    expect(protectedResourceMetadata('http://localhost:8080/')).toEqual({
      resource: 'http://localhost:8080/mcp',
      authorization_servers: ['http://localhost:8080'],
      scopes_supported: ['trade:read', 'trade:write', 'offline_access'],
      bearer_methods_supported: ['header'],
      resource_name: 'Paper Perps MCP server',
      resource_documentation: 'http://localhost:8080/docs',
    });
  });
});

import { PUBLIC_ROUTES, routeFor } from './public-routes';

describe('public routes of the one base URL', () => {
  it.each([
    ['/api/v1/tools', 'tools-gateway'],
    ['/api/v1/me/tools/open_position', 'tools-gateway'],
    ['/openapi.json', 'tools-gateway'],
    ['/.well-known/openapi.json', 'tools-gateway'],
    ['/mcp', 'mcp-server'],
    ['/.well-known/oauth-protected-resource/mcp', 'mcp-server'],
    ['/authorize', 'oauth-server'],
    ['/token', 'oauth-server'],
    ['/register', 'oauth-server'],
    ['/revoke', 'oauth-server'],
    ['/jwks', 'oauth-server'],
    ['/.well-known/oauth-authorization-server', 'oauth-server'],
  ])('%s goes to %s', (path, app) => {
    expect(routeFor(path)).toBe(app);
  });

  it('routes nothing else', () => {
    expect(routeFor('/')).toBeUndefined();
    expect(routeFor('/mcpx')).toBeUndefined();
    expect(routeFor('/jwks/extra')).toBeUndefined();
    expect(routeFor('/internal/readyz')).toBeUndefined();
  });

  it('has no duplicate paths', () => {
    const paths = PUBLIC_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

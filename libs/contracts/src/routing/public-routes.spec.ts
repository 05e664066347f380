import { ALERTS_ROUTES, alertsRouteFor, PUBLIC_ROUTES, routeFor } from './public-routes';

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

  it('matches prefixes by whole path segments, as an Ingress Prefix path does', () => {
    expect(routeFor('/authorize/abc')).toBe('oauth-server');
    expect(routeFor('/authorizex')).toBeUndefined();
    expect(routeFor('/tokens')).toBeUndefined();
    expect(routeFor('/docsfoo')).toBeUndefined();
    expect(routeFor('/docs/swagger.css')).toBe('tools-gateway');
    expect(routeFor('/api')).toBe('tools-gateway');
    expect(routeFor('/apix')).toBeUndefined();
    expect(routeFor('/interaction')).toBe('oauth-server');
  });

  it('routes the alerts base URL to its public endpoints only', () => {
    for (const path of [
      '/api/status',
      '/api/upstream/api/v1/tools',
      '/mcp',
      '/healthz',
      '/openapi.json',
      '/telegram/webhook',
    ])
      expect(alertsRouteFor(path)).toBe('alerts-api');
    for (const path of ['/', '/livez', '/readyz', '/metrics', '/mcp/x', '/apis', '/telegram', '/telegram/webhook/x'])
      expect(alertsRouteFor(path)).toBeUndefined();
    expect(ALERTS_ROUTES.every((r) => r.app === 'alerts-api')).toBe(true);
  });

  it('has no duplicate paths', () => {
    const paths = PUBLIC_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

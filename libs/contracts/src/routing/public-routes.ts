/**
 * The public routes of the one base URL and which app serves each. The Kubernetes Ingress and the
 * local edge proxy of `npm start` are both checked against this table.
 */
export type PublicApp = 'tools-gateway' | 'mcp-server' | 'oauth-server';

export interface PublicRoute {
  /** Exact path, or a prefix when `prefix` is true. */
  path: string;
  prefix: boolean;
  app: PublicApp;
}

export const PUBLIC_ROUTES: readonly PublicRoute[] = Object.freeze([
  { path: '/api/', prefix: true, app: 'tools-gateway' },
  { path: '/openapi.json', prefix: false, app: 'tools-gateway' },
  { path: '/.well-known/openapi.json', prefix: false, app: 'tools-gateway' },
  { path: '/docs', prefix: true, app: 'tools-gateway' },
  { path: '/charts/', prefix: true, app: 'tools-gateway' },
  { path: '/mcp', prefix: false, app: 'mcp-server' },
  { path: '/.well-known/oauth-protected-resource', prefix: true, app: 'mcp-server' },
  { path: '/authorize', prefix: true, app: 'oauth-server' },
  { path: '/token', prefix: true, app: 'oauth-server' },
  { path: '/register', prefix: true, app: 'oauth-server' },
  { path: '/revoke', prefix: true, app: 'oauth-server' },
  { path: '/jwks', prefix: false, app: 'oauth-server' },
  { path: '/.well-known/oauth-authorization-server', prefix: true, app: 'oauth-server' },
  { path: '/.well-known/openid-configuration', prefix: true, app: 'oauth-server' },
  { path: '/interaction/', prefix: true, app: 'oauth-server' },
  { path: '/connections', prefix: true, app: 'oauth-server' },
  { path: '/oauth-assets/', prefix: true, app: 'oauth-server' },
]);

/** The app serving a path, longest match first; undefined when no public route matches. */
export function routeFor(pathname: string): PublicApp | undefined {
  let best: PublicRoute | undefined;
  for (const route of PUBLIC_ROUTES) {
    const matches = route.prefix ? pathname === route.path.replace(/\/$/, '') || pathname.startsWith(route.path) : pathname === route.path;
    if (matches && (!best || route.path.length > best.path.length)) best = route;
  }
  return best?.app;
}

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
  { path: '/.well-known/mcp', prefix: true, app: 'mcp-server' },
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

export interface AlertsRoute {
  path: string;
  prefix: boolean;
  app: 'alerts-api';
}

/**
 * The public routes of the alerts base URL: the alerts API and its upstream proxy, MCP, health, OpenAPI,
 * and the Telegram bot's webhook (used when TELEGRAM_UPDATES_MODE=webhook).
 */
export const ALERTS_ROUTES: readonly AlertsRoute[] = Object.freeze([
  { path: '/api/', prefix: true, app: 'alerts-api' },
  { path: '/mcp', prefix: false, app: 'alerts-api' },
  { path: '/healthz', prefix: false, app: 'alerts-api' },
  { path: '/openapi.json', prefix: false, app: 'alerts-api' },
  { path: '/telegram/webhook', prefix: false, app: 'alerts-api' },
]);

/**
 * Whether a route matches a path the way a Kubernetes Ingress does: Exact compares the whole path;
 * Prefix compares whole path segments (`/authorize` matches `/authorize` and `/authorize/x`, never
 * `/authorizex`; a trailing slash in the route is ignored).
 */
export function routeMatches(route: Pick<PublicRoute, 'path' | 'prefix'>, pathname: string): boolean {
  if (!route.prefix) return pathname === route.path;
  const base = route.path.replace(/\/+$/, '');
  return pathname === base || pathname.startsWith(`${base}/`);
}

/** The route serving a path, longest match first; undefined when no route matches. */
export function bestRoute<R extends Pick<PublicRoute, 'path' | 'prefix'>>(
  routes: readonly R[],
  pathname: string,
): R | undefined {
  let best: R | undefined;
  for (const route of routes) {
    if (routeMatches(route, pathname) && (!best || route.path.length > best.path.length)) best = route;
  }
  return best;
}

/** The app serving a path on the public base URL; undefined when no public route matches. */
export function routeFor(pathname: string): PublicApp | undefined {
  return bestRoute(PUBLIC_ROUTES, pathname)?.app;
}

/** The app serving a path on the alerts base URL; undefined when no alerts route matches. */
export function alertsRouteFor(pathname: string): AlertsRoute['app'] | undefined {
  return bestRoute(ALERTS_ROUTES, pathname)?.app;
}

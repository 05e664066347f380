import { validateHostHeader } from '@modelcontextprotocol/server';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { env } from '../config/env-schema';
import { JSON_RPC, jsonRpcErrorBody } from '../errors/error-body';

/** The variable every MCP endpoint reads: the browser origins admitted besides its own. */
export const mcpTransportEnvShape = {
  MCP_ALLOWED_ORIGINS: env
    .list()
    .describe(
      'Comma-separated origins (scheme://host[:port]) of browser-based MCP clients admitted to /mcp besides the ' +
        "service's own origin; in development loopback origins are admitted too. Requests without Origin " +
        '(server-side clients) are always admitted.',
    ),
};

export interface McpTransportSecurityOptions {
  /** The public base URL of the service: its host is the one Host accepted, its origin an admitted Origin. */
  publicBaseUrl: string;
  /** Further admitted origins (MCP_ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
  /** Development and test: loopback hosts and loopback origins (any port) are admitted too. */
  development: boolean;
  /** The MCP endpoint's path. */
  path?: string;
}

const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];
const ALLOW_HEADERS =
  'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID';
const EXPOSE_HEADERS = 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, Retry-After, Allow';

function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * Whether an Origin header names a loopback origin (`http://localhost:6274`, `http://127.0.0.1`, `http://[::1]:3000`).
 */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTNAMES.includes(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Decides whether an Origin is admitted: the service's own origin, the configured list, and loopback in development.
 */
export function mcpOriginPolicy(options: McpTransportSecurityOptions): (origin: string) => boolean {
  const admitted = new Set([
    originOf(options.publicBaseUrl),
    ...options.allowedOrigins.map((o) => o.replace(/\/+$/, '')),
  ]);
  return (origin) => admitted.has(origin) || (options.development && isLoopbackOrigin(origin));
}

function forbidden(res: Response, message: string): void {
  res.status(403).json(jsonRpcErrorBody(JSON_RPC.serverError, message, { code: 'forbidden' }));
}

const ACCEPTED = { ok: true } as const;
const MAX_REMEMBERED_HOSTS = 32;

function remember<R extends { ok: boolean }>(result: R, hostHeader: string | undefined, accepted: Set<string>): R {
  if (result.ok && hostHeader !== undefined && accepted.size < MAX_REMEMBERED_HOSTS) accepted.add(hostHeader);
  return result;
}

/**
 * MCP transport security (DNS-rebinding protection, MCP 2025-11-25 transport: servers MUST validate
 * Origin), ahead of the MCP route: a `Host` other than the service's public host (or loopback in
 * development) is refused with 403 and a JSON-RPC error (the MCP SDK's host-header validation); an
 * `Origin` outside the admitted origins is refused with 403 as well. Requests without `Origin`
 * (server-side clients) pass. CORS headers of the MCP route follow the same list: an admitted origin is
 * echoed (with `Vary: Origin`), no other.
 */
export function mcpTransportSecurity(options: McpTransportSecurityOptions): RequestHandler {
  const path = options.path ?? '/mcp';
  const hostnames = [new URL(options.publicBaseUrl).hostname, ...(options.development ? LOOPBACK_HOSTNAMES : [])];
  const allowedHostnames = [...new Set(hostnames)];
  // The Host headers already seen and accepted (a handful): checking one parses it as a URL.
  const accepted = new Set<string>();
  const admits = mcpOriginPolicy(options);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== path) return next();
    const hostHeader = req.headers.host;
    const host =
      hostHeader !== undefined && accepted.has(hostHeader)
        ? ACCEPTED
        : remember(validateHostHeader(hostHeader, allowedHostnames), hostHeader, accepted);
    if (!host.ok) {
      res.status(403).json({ jsonrpc: '2.0', error: { code: JSON_RPC.serverError, message: host.message }, id: null });
      return;
    }
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    if (!admits(origin)) {
      return forbidden(
        res,
        `Forbidden: requests from the web origin ${JSON.stringify(origin.slice(0, 200))} are not accepted by this ` +
          `MCP endpoint (DNS-rebinding protection). ` +
          'Server-side clients send no Origin; the operator admits a browser-based client by adding its origin to ' +
          'MCP_ALLOWED_ORIGINS.',
      );
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}

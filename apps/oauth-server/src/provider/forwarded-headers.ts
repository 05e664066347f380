import type { Request } from 'express';

/** The headers a proxy sets about the original request (RFC 7239 and the X-Forwarded-* family). */
const FORWARDED_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port'];

type TrustProxy = (address: string, hop: number) => boolean;

/**
 * oidc-provider reads the forwarded headers (its `proxy` setting) for the caller's address, scheme and
 * host. They are kept only when the request came straight from a trusted proxy (TRUSTED_PROXIES, as
 * Express evaluates it); from anyone else they are removed, so a caller cannot claim https or another host.
 */
export function dropUntrustedForwardedHeaders(req: Request): void {
  const trusted = req.app.get('trust proxy fn') as TrustProxy | undefined;
  if (trusted?.(req.socket.remoteAddress ?? '', 0)) return;
  for (const name of FORWARDED_HEADERS) delete req.headers[name];
}

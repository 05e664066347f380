import { jsonValueTooDeep, tooDeepMessage, unstorableTextMessage, unstorableTextPath } from '@paper/nest-infra';
import { errors } from 'oidc-provider';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Schemes a redirect can never safely use (they run or embed content in the browser). */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

/**
 * What dynamic registration refuses beyond oidc-provider's own checks (RFC 7591 errors, 400):
 * metadata nested deeper than MAX_JSON_DEPTH (`invalid_client_metadata`), text PostgreSQL cannot store in a redirect
 * URI (`invalid_redirect_uri`) or anywhere else in the metadata (`invalid_client_metadata`), naming the field, and
 * redirect URIs that would send codes in the clear or into the page: plain `http` only to a loopback address (RFC 8252
 * native apps; OAuth 2.1 and RFC 9700 require TLS otherwise), never `javascript:`, `data:` and the like.
 */
export function checkRegistration(metadata: Record<string, unknown>): void {
  if (jsonValueTooDeep(metadata)) throw new errors.InvalidClientMetadata(tooDeepMessage());
  const uris = metadata['redirect_uris'];
  // oidc-provider answers a description starting with `redirect_uris` as `invalid_redirect_uri`.
  const unstorableUri = unstorableTextPath(uris, 'redirect_uris');
  if (unstorableUri !== undefined)
    throw new errors.InvalidClientMetadata(`redirect_uris: ${unstorableTextMessage(unstorableUri)}`);
  const unstorable = unstorableTextPath(metadata);
  if (unstorable !== undefined) throw new errors.InvalidClientMetadata(unstorableTextMessage(unstorable));
  if (!Array.isArray(uris)) return;
  for (const uri of uris) {
    if (typeof uri !== 'string') continue;
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      continue; // oidc-provider refuses it with its own message
    }
    if (FORBIDDEN_SCHEMES.has(url.protocol))
      throw new errors.InvalidClientMetadata(`redirect_uris: the ${url.protocol} scheme cannot be a redirect URI`);
    if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
      throw new errors.InvalidClientMetadata(
        `redirect_uris: ${uri.slice(0, 200)} uses plain http to a host that is not this computer; use https (plain http is only for loopback addresses: 127.0.0.1, [::1], localhost)`,
      );
    }
  }
}

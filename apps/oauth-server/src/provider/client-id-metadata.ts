import type { Configuration } from 'oidc-provider';

/** How long a fetched client ID metadata document is used, in seconds, when its caching headers say otherwise. */
const CACHE_SECONDS = { min: 60, max: 86_400 };

/**
 * Client ID Metadata Documents (MCP 2026-07-28 client registration; draft-ietf-oauth-client-id-metadata-
 * document): a client whose `client_id` is an HTTPS URL is described by the JSON document at that URL,
 * instead of registering. oidc-provider fetches it (GET, no redirects, 2.5 s, at most 5 KiB, refusing
 * special-use addresses such as loopback, private and link-local ones at connect time), checks that its
 * `client_id` is the URL and that it declares no shared secret, keeps it in memory for as long as its
 * `Cache-Control: max-age` or `Expires` says (between one minute and a day), and checks the request's
 * `redirect_uri` against the document's `redirect_uris` as for any client. Nothing is stored: a client
 * that connects again creates no client record.
 *
 * `privateHosts` (host:port, development and tests) may be served from loopback or private addresses.
 */
export function clientIdMetadataDocuments(
  privateHosts: readonly string[],
): Pick<Configuration, 'fetch'> & { feature: NonNullable<Configuration['features']>['clientIdMetadataDocument'] } {
  const exempt = new Set(privateHosts.map((h) => h.toLowerCase()));
  return {
    feature: {
      enabled: true,
      ack: 'draft-02',
      // Only the URL form the draft allows (checked by oidc-provider too); a document host must not be an IP literal.
      allowFetch: (_ctx, clientId) => {
        const url = URL.parse(clientId);
        return !!url && url.protocol === 'https:' && !/^\[|^\d+(\.\d+){3}$/.test(url.hostname);
      },
      cacheDuration: CACHE_SECONDS,
    },
    fetch: (url, options) => {
      const host = new URL(url instanceof Request ? url.url : url).host.toLowerCase();
      if (!exempt.has(host)) return fetch(url, options);
      const { dispatcher: _guard, ...rest } = options as RequestInit & { dispatcher?: unknown };
      return fetch(url, rest);
    },
  };
}

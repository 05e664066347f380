const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An http URL on a loopback host (127.0.0.1, localhost, [::1]): an app on the same computer. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** `http://<loopback host>/<path>?<query>` without the port, or undefined when not a loopback http URI. */
function withoutLoopbackPort(uri: string): string | undefined {
  const url = URL.parse(uri);
  if (!url || !isLoopbackHttp(url)) return undefined;
  url.port = '';
  return url.href;
}

/**
 * Exact redirect-URI matching, except that a registered loopback http URI (127.0.0.1, localhost, [::1])
 * matches the same URI on any port (RFC 8252 section 7.3): native apps listen on an ephemeral port.
 */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const stripped = withoutLoopbackPort(requested);
  if (stripped === undefined) return false;
  return registered.some((uri) => withoutLoopbackPort(uri) === stripped);
}

import { isLoopbackHttp } from '../provider/loopback-redirect';

/**
 * Where a redirect URI sends the person, in words: the host name, or for a loopback address (an app on
 * the person's own computer, accepted on any port) "this computer" without the port.
 */
export function redirectHostLabel(uri: string): string {
  const url = URL.parse(uri);
  if (!url) return 'an unknown address';
  return isLoopbackHttp(url) ? `this computer (${url.hostname})` : url.host;
}

/**
 * The host that vouches for a client which presented a client ID metadata document (its `client_id` is
 * the HTTPS URL of that document): the name an app gives itself is its own claim, the host is not.
 * Undefined for a registered client.
 */
export function clientIdHost(clientId: string): string | undefined {
  const url = /^https:\/\//i.test(clientId) ? URL.parse(clientId) : null;
  return url ? url.host : undefined;
}

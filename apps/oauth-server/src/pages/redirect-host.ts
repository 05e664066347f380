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

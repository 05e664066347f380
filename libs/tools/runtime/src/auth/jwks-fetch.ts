import type { FetchImplementation } from 'jose';

/** The authorization server's JWKS could not be fetched: no answer, a network failure, or not a 200. */
export class JwksUnavailableError extends Error {
  override readonly name = 'JwksUnavailableError';
}

/**
 * True only for a fetch that failed on the network (refused, reset, unreachable, DNS): Node's fetch rejects
 * with `TypeError("fetch failed")` carrying the socket error as its `cause`. Any other TypeError is a bug
 * and is not mistaken for an outage. (Compared by name: errors of Node's fetch may come from another realm.)
 */
export function isNetworkFailure(error: unknown): boolean {
  const e = error as { name?: unknown; message?: unknown; cause?: unknown } | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.name === 'TypeError' &&
    e.message === 'fetch failed' &&
    e.cause !== undefined
  );
}

/**
 * The fetch jose uses for the JWKS: network failures and non-200 answers become JwksUnavailableError, so
 * the verifier can tell "the authorization server is down" (502, retry) from "the token is bad" (401).
 * Timeouts keep their TimeoutError name, which jose turns into JWKSTimeout.
 */
export const jwksFetch: FetchImplementation = async (url, options) => {
  let response: Response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    if (isNetworkFailure(error))
      throw new JwksUnavailableError(`JWKS ${url} unreachable: ${describeCause(error)}`, { cause: error });
    throw error;
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new JwksUnavailableError(`JWKS ${url} answered ${response.status}`);
  }
  return response;
};

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? 'no answer';
}

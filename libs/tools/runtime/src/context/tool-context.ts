/** Which path family a call came in on: the public one (no token) or the authenticated one. */
export type CallFamily = 'public' | 'me';

/** Who is calling: transport-neutral (REST and MCP build the same context). */
export interface ToolContext {
  readonly family: CallFamily;
  /** The connected wallet (lower-case 0x address), from the access token. */
  readonly wallet?: string;
  /** Granted OAuth scopes. Empty on the public family. */
  readonly scopes: readonly string[];
  /** The session key named by the token (`session_key` claim), lower-case. */
  readonly sessionKey?: string;
  readonly clientId?: string;
  /** The connection (OAuth grant) of the token, when it names one. */
  readonly grantId?: string;
  /** When the token expires (unix seconds): long-lived calls (event streams) end then. */
  readonly tokenExpiresAt?: number;
  /** Key of the per-caller rate limit: the client IP on the public family, the token subject on /me. */
  readonly callerId: string;
  /** On a write with a client key: what it did so far (the key is never freed once the exchange accepted an intent). */
  readonly writeProgress?: WriteProgress;
}

/** What a write with a client key has done so far. */
export interface WriteProgress {
  /** Whether the exchange's inbox accepted an intent of the call. */
  accepted: boolean;
}

export function anonymousContext(callerId: string, family: CallFamily = 'public'): ToolContext {
  return { family, scopes: [], callerId };
}

/** A context with a connected wallet: that of a verified access token. */
export type TokenContext = ToolContext & { readonly wallet: string };

/**
 * The context of a verified access token. Its rate limit is per wallet and client, the same bucket on
 * REST and MCP.
 */
export function tokenContext(token: {
  wallet: string;
  scopes: readonly string[];
  sessionKey?: string;
  clientId?: string;
  grantId?: string;
  expiresAt?: number;
}): TokenContext {
  const callerId = `sub:${token.wallet}:${token.clientId ?? '-'}`;
  return {
    family: 'me',
    wallet: token.wallet,
    scopes: token.scopes,
    sessionKey: token.sessionKey,
    clientId: token.clientId,
    grantId: token.grantId,
    tokenExpiresAt: token.expiresAt,
    callerId,
  };
}

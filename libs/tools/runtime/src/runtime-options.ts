import type { UpstreamConfig } from '@paper/upstream';

export const TOOLS_RUNTIME_OPTIONS = Symbol('TOOLS_RUNTIME_OPTIONS');

/** Settings of the tool runtime, taken from the hosting app's config. */
export interface ToolsRuntimeOptions {
  /** The public base URL (issuer, chart links, OpenAPI servers). No trailing slash. */
  publicBaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** Database of the exchange and oauth schemas (the session-key secrets are read from oauth). */
  databaseUrl: string;
  upstream: UpstreamConfig;
  /** Decrypts session-key private keys (same key as oauth-server). */
  sessionKeyEncryptionKey: string;
  sessionKeyEncryptionKeysOld: readonly string[];
  /** How long a preview quote can be presented (QUOTE_VALIDITY_SECONDS unless configured). */
  quoteTtlSeconds: number;
  /** How long open_position / close_positions / cancel_intent wait for the executor before reporting pending. */
  intentWaitMs: number;
  /** JWKS of the oauth-server (internal URL). */
  oauthJwksUrl: string;
  /** Expected `iss` of access tokens (the public base URL). */
  tokenIssuer: string;
  /** Accepted `aud` values. */
  tokenAudiences: string[];
  /** A live price older than this refuses previews and opens (502, retry). */
  priceMaxAgeMs: number;
}

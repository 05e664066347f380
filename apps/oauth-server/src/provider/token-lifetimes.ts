/**
 * Lifetimes in seconds (documented in docs/oauth.md). The access-token lifetime is configuration
 * (OAUTH_ACCESS_TTL_SECONDS); a trading connection ends with its session key.
 */
export const TOKEN_TTL = {
  authorizationCode: 60,
  refreshToken: 30 * 24 * 3600,
  /** A read-only connection; a trading connection lasts as long as its session key (at most 30 days). */
  grant: 30 * 24 * 3600,
  idToken: 15 * 60,
  interaction: 60 * 60,
  session: 24 * 3600,
  /** A registered client that no connection was ever approved for is removed after this long. */
  unusedClient: 30 * 24 * 3600,
} as const;

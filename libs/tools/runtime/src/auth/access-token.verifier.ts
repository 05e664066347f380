import { Inject, Injectable, Logger } from '@nestjs/common';
import { SCOPES, ToolErrorCode } from '@paper/contracts';
import { createRemoteJWKSet, customFetch, errors, jwtVerify } from 'jose';
import { RETRY_AFTER_SECONDS, ToolError } from '../errors/tool.error';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';
import { ConnectionLiveness } from './connection-liveness';
import { JwksUnavailableError, jwksFetch } from './jwks-fetch';

/** What the resource servers take from a verified access token. */
export interface VerifiedToken {
  wallet: string;
  scopes: string[];
  sessionKey?: string;
  clientId?: string;
  /** The connection (OAuth grant) the token was issued for (`grant_id` claim). */
  grantId?: string;
  subject: string;
  /** Unix seconds. */
  expiresAt: number;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The JWT header `typ` of access tokens (RFC 9068); `application/at+jwt` is the same type. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

export function bearerChallenge(
  error?: 'invalid_token' | 'insufficient_scope',
  scope: string = SCOPES.read,
  description?: string,
): string {
  const parts = [`realm="tool-api"`];
  if (error) parts.push(`error="${error}"`);
  if (description) parts.push(`error_description="${description.replace(/"/g, "'")}"`);
  parts.push(`scope="${scope}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * Verifies ES256 access tokens of the oauth-server through its JWKS (cached, refetched on unknown kid):
 * header `typ: at+jwt` (RFC 9068, so an ID token or another JWT of the issuer is not taken for an access
 * token), signature, issuer, audience (the resources the hosting transport accepts) and expiry. When the
 * JWKS cannot be fetched the answer is 502 `auth_unavailable` with Retry-After, not a token error.
 * A token of a connection that was revoked since (its grant is gone) is refused like an invalid one, on
 * every call (ConnectionLiveness: read at most GRANT_LIVE_CACHE_MS earlier).
 */
@Injectable()
export class AccessTokenVerifier {
  private readonly logger = new Logger('AccessTokens');
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    @Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions,
    private readonly connections: ConnectionLiveness,
  ) {
    this.jwks = createRemoteJWKSet(new URL(options.oauthJwksUrl), {
      cacheMaxAge: 10 * 60_000,
      cooldownDuration: 10_000,
      timeoutDuration: 3000,
      [customFetch]: jwksFetch,
    });
  }

  /** Verifies an `Authorization` header value; throws 401 ToolErrors with a Bearer challenge. */
  async verifyHeader(authorization: string | undefined): Promise<VerifiedToken> {
    if (!authorization) {
      throw new ToolError(
        ToolErrorCode.Unauthorized,
        'This call needs an OAuth access token: connect the app to your wallet (authorization code flow at ' +
          '/authorize) and send "Authorization: Bearer <token>".',
        { 'WWW-Authenticate': bearerChallenge() },
      );
    }
    const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization);
    if (!match) throw this.invalid('The Authorization header must be "Bearer <access token>".');
    return this.verify(match[1]!);
  }

  async verify(token: string): Promise<VerifiedToken> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: this.options.tokenIssuer,
        audience: this.options.tokenAudiences,
        algorithms: ['ES256'],
        typ: ACCESS_TOKEN_TYPE,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      if (
        error instanceof errors.JWKSTimeout ||
        error instanceof errors.JWKSInvalid ||
        error instanceof JwksUnavailableError
      ) {
        this.logger.warn(`JWKS unavailable: ${error.message}`);
        throw new ToolError(
          ToolErrorCode.AuthUnavailable,
          'The sign-in service did not answer, so the access token could not be checked. Nothing was done; retry ' +
            'the same call in a few seconds.',
          { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        );
      }
      // jose reports every problem of the token itself as a JOSEError; anything else is a bug (500, logged).
      if (!(error instanceof errors.JOSEError)) throw error;
      throw this.invalid(describe(error));
    }
    const wallet =
      typeof payload['wallet'] === 'string'
        ? payload['wallet']
        : typeof payload['sub'] === 'string'
          ? payload['sub']
          : '';
    if (!ADDRESS.test(wallet)) throw this.invalid('The access token names no wallet.');
    const scope = typeof payload['scope'] === 'string' ? payload['scope'] : '';
    const sessionKey =
      typeof payload['session_key'] === 'string' && ADDRESS.test(payload['session_key'])
        ? payload['session_key'].toLowerCase()
        : undefined;
    const grantId = typeof payload['grant_id'] === 'string' ? payload['grant_id'] : undefined;
    if (grantId !== undefined && !(await this.connections.isLive(grantId)))
      throw this.invalid('the connection was revoked');
    return {
      wallet: wallet.toLowerCase(),
      scopes: scope.split(/\s+/).filter(Boolean),
      sessionKey,
      clientId: typeof payload['client_id'] === 'string' ? payload['client_id'] : undefined,
      grantId,
      subject: String(payload['sub']),
      expiresAt: Number(payload['exp']),
    };
  }

  private invalid(reason: string): ToolError {
    return new ToolError(
      ToolErrorCode.InvalidToken,
      `The access token is not valid (${reason}). Connect again to get a new token, or refresh it.`,
      {
        'WWW-Authenticate': bearerChallenge('invalid_token', SCOPES.read, reason),
      },
    );
  }
}

function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'it has expired';
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'typ')
    return `it is not an access token (header typ must be ${ACCESS_TOKEN_TYPE})`;
  if (error instanceof errors.JWTClaimValidationFailed) return `claim "${error.claim}" is not accepted`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not verify';
  if (error instanceof errors.JWKSNoMatchingKey) return 'it is not signed by a key of this service';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'it is not signed with ES256';
  return 'it could not be read';
}

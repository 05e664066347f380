import { dropUntrustedForwardedHeaders } from './forwarded-headers';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, HealthRegistry, isDependencyOutage } from '@paper/nest-infra';
import { deleteExpiredRows } from '@paper/oauth-data';
import type { NextFunction, Request, Response } from 'express';
import Provider from 'oidc-provider';
import { DataSource } from 'typeorm';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { SessionKeyRevocations } from '../session-keys/session-key-revocations.service';
import { SessionKeysService } from '../session-keys/session-keys.service';
import { redirectUriMatches } from './loopback-redirect';
import { OAUTH_ROUTES, providerConfiguration } from './provider-configuration';
import { treatOfflineAccessAsConsent } from './offline-access';
import { loadProviderKeys } from './provider-keys';
import { answerOutagesAsUnavailable } from './provider-outages';
import { answerUnknownPathsInOAuthShape } from './endpoint-methods';

const PROVIDER_PATHS = [
  ...Object.values(OAUTH_ROUTES),
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
];
const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

/** True for the paths oidc-provider serves (and whose request bodies it reads itself). */
export function isProviderPath(path: string): boolean {
  return PROVIDER_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

type ClientPrototype = { redirectUriAllowed(this: { redirectUris: string[] }, value: string): boolean };

/**
 * Builds the oidc-provider instance once the database is reachable (keys are shared through it) and
 * serves its routes. Readiness stays down until then.
 */
@Injectable()
export class OidcProviderService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AuthorizationServer');
  private instance?: Provider;
  private handler?: (req: Request, res: Response) => void;
  private retry?: NodeJS.Timeout;
  private cleanup?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: OauthServerConfig,
    private readonly dataSource: DataSource,
    private readonly health: HealthRegistry,
    private readonly sessionKeys: SessionKeysService,
    private readonly revocations: SessionKeyRevocations,
  ) {}

  get provider(): Provider {
    if (!this.instance) throw new Error('authorization server is not ready');
    return this.instance;
  }

  async onModuleInit(): Promise<void> {
    this.health.register('authorization-server', async () => {
      if (!this.instance) throw new Error('not started');
    });
    await this.start(0);
  }

  /** Express middleware: hands the OAuth endpoints to oidc-provider (raw body), everything else on. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (!isProviderPath(req.path)) return next();
      if (!this.handler) {
        res.status(503).json({
          error: 'temporarily_unavailable',
          error_description: 'The authorization server is starting; retry shortly.',
        });
        return;
      }
      dropUntrustedForwardedHeaders(req);
      this.handler(req, res);
    };
  }

  private async start(attempt: number): Promise<void> {
    try {
      if (!this.dataSource.isInitialized) throw new Error('database not connected yet');
      const keys = await loadProviderKeys(this.config, this.dataSource);
      const provider = new Provider(
        this.config.PUBLIC_BASE_URL,
        providerConfiguration({
          config: this.config,
          dataSource: this.dataSource,
          keys,
          sessionKeyForGrant: (grantId) => this.sessionKeys.activeAddressForGrant(grantId),
          revokeSessionKeys: (grantId) => this.revocations.revokeForGrant(grantId),
        }),
      );
      // Forwarded headers reach the provider only from TRUSTED_PROXIES (see dropUntrustedForwardedHeaders).
      provider.proxy = true;
      allowLoopbackRedirectsOnAnyPort(provider);
      treatOfflineAccessAsConsent(provider, OAUTH_ROUTES.authorization);
      answerUnknownPathsInOAuthShape(provider);
      // Removing a grant (reuse detection, /revoke) awaits the revocation of its session keys in the adapter.
      provider.on('grant.revoked', (_ctx, grantId: string) => this.logger.log(`connection revoked: grant ${grantId}`));
      answerOutagesAsUnavailable(provider, (message) => this.logger.warn(message));
      provider.on('server_error', (_ctx, error: Error) => {
        if (!isDependencyOutage(error)) this.logger.error(`server error: ${error.stack ?? error.message}`);
      });
      this.handler = provider.callback() as unknown as (req: Request, res: Response) => void;
      this.instance = provider;
      this.cleanup = setInterval(
        () => void deleteExpiredRows(this.dataSource).catch(() => undefined),
        CLEANUP_INTERVAL_MS,
      );
      this.cleanup.unref();
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn(`authorization server not started (attempt ${attempt + 1}): ${(error as Error).message}`);
      this.retry = setTimeout(() => void this.start(attempt + 1), Math.min(500 * 2 ** attempt, 5000));
    }
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.cleanup);
  }
}

/** Exact redirect matching, plus RFC 8252 loopback redirects on any port (see loopback-redirect.ts). */
function allowLoopbackRedirectsOnAnyPort(provider: Provider): void {
  const proto = (provider.Client as unknown as { prototype: ClientPrototype }).prototype;
  proto.redirectUriAllowed = function redirectUriAllowed(value: string): boolean {
    return redirectUriMatches(value, this.redirectUris);
  };
}

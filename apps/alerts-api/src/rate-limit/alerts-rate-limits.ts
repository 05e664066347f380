import { Inject, Injectable } from '@nestjs/common';
import { accountIdOfToken } from '@paper/alerts-accounts';
import {
  APP_CONFIG,
  REDIS,
  type RateLimit,
  type RateLimited,
  RedisRateLimiter,
  clientIp,
  retryAfterText,
} from '@paper/nest-infra';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import { AccountAuthService } from '../auth/account-auth.service';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { IdempotencyScopes } from '../idempotency/idempotency-scopes';

/**
 * Probes and metrics are never limited (the platform calls them), nor the Telegram webhook (Telegram's
 * servers, checked by the webhook secret; the bot's replies draw from the Telegram rate-limit buckets).
 */
const UNLIMITED_PATHS = new Set(['/healthz', '/livez', '/readyz', '/metrics', '/telegram/webhook']);
/** After a refused token, that address's token requests also count against its public bucket for this long. */
const REFUSED_TOKEN_MEMORY_MS = 60_000;
const REFUSED_TOKEN_ADDRESSES = 10_000;

/** The path as the router matches it (a trailing slash makes no difference), so no spelling picks another bucket. */
function routePath(req: Request): string {
  return req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
}

/** What one request is counted against, and why (for the message of a refusal). */
interface Bucket {
  key: string;
  limit: RateLimit;
  scope: string;
}

/**
 * The per-caller limits of alerts-api on the services' shared limiter: account creation per client
 * address, every request with an account token per account, every other request per client address (the
 * exchange proxy included). A refused token (401) makes its address's next token requests count against
 * the address as well, so forged tokens cannot dodge the limits. A replayed account creation (its
 * Idempotency-Key already answered) creates nothing: it counts as a request from its address, not as a creation.
 */
@Injectable()
export class AlertsRateLimits {
  private readonly limiter: RedisRateLimiter;
  private readonly accounts: RateLimit;
  private readonly account: RateLimit;
  private readonly public: RateLimit;
  private readonly refusedToken = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) config: AlertsApiConfig,
    @Inject(REDIS) redis: Redis,
    private readonly idempotency: IdempotencyScopes,
  ) {
    this.limiter = new RedisRateLimiter(redis, `${config.REDIS_PREFIX}:alerts:rate`);
    this.accounts = {
      perSecond: config.ALERTS_RATE_ACCOUNTS_PER_HOUR / 3600,
      burst: config.ALERTS_RATE_ACCOUNTS_BURST,
    };
    this.account = { perSecond: config.ALERTS_RATE_ACCOUNT_PER_SECOND, burst: config.ALERTS_RATE_ACCOUNT_BURST };
    this.public = { perSecond: config.ALERTS_RATE_PUBLIC_PER_SECOND, burst: config.ALERTS_RATE_PUBLIC_BURST };
  }

  /** Spends the request's share: undefined when it may go on, otherwise the refusal's message and wait. */
  async check(req: Request): Promise<{ limited: RateLimited; message: string } | undefined> {
    if (UNLIMITED_PATHS.has(routePath(req)) || req.method === 'OPTIONS') return undefined;
    const ip = clientIp(req);
    for (const bucket of await this.buckets(req, ip)) {
      const pending = this.limiter.spend(bucket.key, bucket.limit);
      const limited = pending && (await pending);
      if (limited) return { limited, message: this.message(bucket, limited) };
    }
    return undefined;
  }

  /** Remembers that this address sent a token that was refused. */
  tokenRefused(req: Request): void {
    if (this.refusedToken.size >= REFUSED_TOKEN_ADDRESSES) this.refusedToken.clear();
    this.refusedToken.set(clientIp(req), Date.now() + REFUSED_TOKEN_MEMORY_MS);
  }

  private async buckets(req: Request, ip: string): Promise<Bucket[]> {
    const perAddress: Bucket = {
      key: `ip:${ip}`,
      limit: this.public,
      scope: 'from this address without an account token',
    };
    if (req.method === 'POST' && routePath(req) === '/api/accounts') {
      if (await this.idempotency.isCreationReplay(req)) return [perAddress];
      return [{ key: `accounts:${ip}`, limit: this.accounts, scope: 'accounts created from this address' }];
    }
    const token = AccountAuthService.bearer(req.headers.authorization);
    const accountId = token ? accountIdOfToken(token) : undefined;
    if (accountId === undefined) return [perAddress];
    const perAccount: Bucket = { key: `account:${accountId}`, limit: this.account, scope: 'for this account' };
    const refusedUntil = this.refusedToken.get(ip);
    if (refusedUntil === undefined) return [perAccount];
    if (refusedUntil > Date.now()) return [perAccount, perAddress];
    this.refusedToken.delete(ip);
    return [perAccount];
  }

  private message(bucket: Bucket, limited: RateLimited): string {
    const { perSecond, burst } = bucket.limit;
    const rate =
      bucket.limit === this.accounts
        ? `${Math.round(perSecond * 3600)} an hour (${burst} at once)`
        : `${perSecond} a second (bursts up to ${burst})`;
    return `Too many requests ${bucket.scope}: at most ${rate}. Retry in ${retryAfterText(limited)}.`;
  }
}

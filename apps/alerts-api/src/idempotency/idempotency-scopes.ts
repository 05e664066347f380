import { type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AlertsException, hashToken } from '@paper/alerts-accounts';
import { AlertsErrorCode } from '@paper/contracts';
import {
  IDEMPOTENCY_HEADER,
  type IdempotencyStore,
  isValidIdempotencyKey,
  PgIdempotencyStore,
  SealedIdempotencyStore,
} from '@paper/idempotency';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { AccountAuthService } from '../auth/account-auth.service';

const SCOPE_RULE = 'alerts:idempotency-scope';
type ScopeRule = 'key' | 'token';
/** The scope of keys scoped by themselves (rows keyed by the key's SHA-256, answers sealed). */
const KEY_SCOPE = 'key';
/** A key that is its caller's only secret is at least this long (a UUID v4 is 36 characters). */
export const MIN_SECRET_KEY_LENGTH = 32;

/**
 * The write's Idempotency-Key is scoped by the key itself, for a caller without an account
 * (`POST /api/accounts`): the key is the caller's secret, at least 32 characters (a UUID v4). Rows hold
 * only the key's SHA-256 and the answer sealed under a key derived from it (SealedIdempotencyStore).
 */
export const ScopedByIdempotencyKey = (): MethodDecorator => SetMetadata(SCOPE_RULE, 'key' satisfies ScopeRule);

/**
 * The write's Idempotency-Key is scoped by the account token (its SHA-256), not the account id, so its
 * answer outlives the account (`DELETE /api/me`): a retry with the same token and key is replayed even
 * though the token no longer authenticates; it is never run.
 */
export const ScopedByAccountToken = (): MethodDecorator => SetMetadata(SCOPE_RULE, 'token' satisfies ScopeRule);

/** Where a write's key lives. */
export interface IdempotencyScope {
  store: IdempotencyStore;
  scope: string;
  /** The key is the caller's only secret: it must be at least MIN_SECRET_KEY_LENGTH characters. */
  secretKey: boolean;
}

type ScopedRequest = Request & { accountId?: string };

/**
 * The scopes of the alerts API's Idempotency-Keys, one table (`alerts.idempotency_keys`): per account for
 * authenticated writes, per account token for the account's deletion, per key for account creation.
 */
@Injectable()
export class IdempotencyScopes {
  /** Keys per account and per account token. */
  readonly store: PgIdempotencyStore;
  private readonly sealed: SealedIdempotencyStore;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    private readonly reflector: Reflector,
  ) {
    this.store = new PgIdempotencyStore(dataSource, 'alerts.idempotency_keys');
    this.sealed = new SealedIdempotencyStore(this.store);
  }

  /** The request's key scope: undefined when its keys are not kept (no account and no rule of its own). */
  of(context: ExecutionContext): IdempotencyScope | undefined {
    const req = context.switchToHttp().getRequest<ScopedRequest>();
    switch (this.rule(context)) {
      case 'key':
        return { store: this.sealed, scope: KEY_SCOPE, secretKey: true };
      case 'token': {
        const token = AccountAuthService.bearer(req.headers.authorization);
        return token ? { store: this.store, scope: tokenScope(token), secretKey: false } : undefined;
      }
      default:
        return req.accountId ? { store: this.store, scope: req.accountId, secretKey: false } : undefined;
    }
  }

  /**
   * Whether a request whose token was refused retries a write kept under that token (the account's
   * deletion): it may go on to be replayed, and is refused if it would run.
   */
  async keptForRefusedToken(context: ExecutionContext): Promise<boolean> {
    if (this.rule(context) !== 'token') return false;
    const req = context.switchToHttp().getRequest<ScopedRequest>();
    const key = validKey(req);
    const token = AccountAuthService.bearer(req.headers.authorization);
    if (!key || !token) return false;
    return (await this.store.get(tokenScope(token), key)) !== undefined;
  }

  /** Whether an account creation's key already has its answer: the request is a replay and creates nothing. */
  async isCreationReplay(req: Request): Promise<boolean> {
    const key = validKey(req);
    if (!key || key.length < MIN_SECRET_KEY_LENGTH) return false;
    const record = await this.sealed.get(KEY_SCOPE, key).catch(() => undefined);
    return record?.state === 'done';
  }

  private rule(context: ExecutionContext): ScopeRule | undefined {
    return this.reflector.get<ScopeRule | undefined>(SCOPE_RULE, context.getHandler());
  }
}

/** The scope of keys kept under an account token. */
function tokenScope(token: string): string {
  return `token:${hashToken(token)}`;
}

function validKey(req: Request): string | undefined {
  const key = req.headers[IDEMPOTENCY_HEADER];
  return typeof key === 'string' && isValidIdempotencyKey(key) ? key : undefined;
}

/** A malformed Idempotency-Key: 400 validation_failed. */
export function checkIdempotencyKey(key: unknown, scope: IdempotencyScope): asserts key is string {
  if (typeof key !== 'string' || !isValidIdempotencyKey(key))
    throw new AlertsException(
      AlertsErrorCode.ValidationFailed,
      'Idempotency-Key must be 1 to 255 visible ASCII characters.',
    );
  if (scope.secretKey && key.length < MIN_SECRET_KEY_LENGTH)
    throw new AlertsException(
      AlertsErrorCode.ValidationFailed,
      `Idempotency-Key of POST /api/accounts must be at least ${MIN_SECRET_KEY_LENGTH} characters: it is the only ` +
        'secret that guards the replayed account token. Send a random UUID v4.',
    );
}

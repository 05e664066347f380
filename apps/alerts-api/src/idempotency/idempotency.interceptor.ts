import { type CallHandler, type ExecutionContext, Injectable, Logger, type NestInterceptor } from '@nestjs/common';
import { AlertsException } from '@paper/alerts-accounts';
import { AlertsErrorCode } from '@paper/contracts';
import {
  claimIdempotencyKey,
  IDEMPOTENCY_HEADER,
  IdempotencyPruner,
  IDEMPOTENT_REPLAYED_HEADER,
  isKeptAnswer,
  requestFingerprint,
} from '@paper/idempotency';
import type { Request, Response } from 'express';
import { defer, from, mergeMap, type Observable, of } from 'rxjs';
import { type ReplayOnlyRequest, replayOnlyRefusal } from '../auth/account-auth.guard';
import { checkIdempotencyKey, type IdempotencyScope, IdempotencyScopes } from './idempotency-scopes';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * `Idempotency-Key` on the alerts API's writes (@paper/idempotency): within its scope (the account; the
 * account token for the account's deletion; the key itself for account creation, see IdempotencyScopes),
 * the same key with the same method, path and body answers the first 2xx answer again
 * (`Idempotent-Replayed: true`); other arguments `409 idempotency_key_mismatch`; while the first still
 * runs, a retry waits for it (up to 10 s), then `409 idempotency_key_in_progress`. Errors are not kept:
 * the key can be used again. A request let through only to be replayed (its token died with the account)
 * is refused with its 401 when there is nothing to replay.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  private readonly pruner: IdempotencyPruner;

  constructor(private readonly scopes: IdempotencyScopes) {
    this.pruner = new IdempotencyPruner(scopes.store, (error) =>
      this.logger.warn(`pruning idempotency keys failed: ${error.message}`),
    );
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & ReplayOnlyRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.headers[IDEMPOTENCY_HEADER];
    const target = WRITES.has(req.method) && req.path.startsWith('/api/') ? this.scopes.of(context) : undefined;
    if (key === undefined || !target) {
      const refusal = replayOnlyRefusal(req);
      if (refusal) throw refusal;
      return next.handle();
    }
    checkIdempotencyKey(key, target);
    const fingerprint = requestFingerprint(req.method, req.originalUrl, req.body ?? null);
    this.pruner.maybePrune();
    return from(claimIdempotencyKey(target.store, target.scope, key, fingerprint)).pipe(
      mergeMap((claim) => {
        if (claim.kind === 'mismatch')
          throw new AlertsException(
            AlertsErrorCode.IdempotencyKeyMismatch,
            'This Idempotency-Key was used with other arguments. Use a new key for a different request.',
          );
        if (claim.kind === 'in_progress')
          throw new AlertsException(
            AlertsErrorCode.IdempotencyKeyInProgress,
            'A request with this Idempotency-Key is still running. Retry shortly.',
            { 'Retry-After': '1' },
          );
        if (claim.kind === 'replay') {
          res.status(claim.answer.status).setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
          return of(claim.answer.body ?? undefined);
        }
        const refusal = replayOnlyRefusal(req);
        if (refusal) return from(target.store.release(target.scope, key).then(() => Promise.reject(refusal)));
        return this.run(next, target, key, res);
      }),
    );
  }

  /** Runs the request; keeps a 2xx answer for replays, forgets the key otherwise. */
  private run(next: CallHandler, { store, scope }: IdempotencyScope, key: string, res: Response): Observable<unknown> {
    return defer(async () => {
      let body: unknown;
      try {
        body = await new Promise((resolve, reject) => {
          let last: unknown;
          next.handle().subscribe({ next: (v) => (last = v), error: reject, complete: () => resolve(last) });
        });
      } catch (error) {
        await store.release(scope, key);
        throw error;
      }
      const status = res.statusCode;
      if (status < 300 && isKeptAnswer(status)) await store.complete(scope, key, { status, body: body ?? null });
      else await store.release(scope, key);
      return body;
    });
  }
}

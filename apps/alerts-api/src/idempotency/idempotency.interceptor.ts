import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import { AlertsException } from '@paper/alerts-accounts';
import { AlertsErrorCode } from '@paper/contracts';
import {
  claimIdempotencyKey,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_RETENTION_MS,
  IDEMPOTENT_REPLAYED_HEADER,
  isKeptAnswer,
  isValidIdempotencyKey,
  PgIdempotencyStore,
  requestFingerprint,
} from '@paper/idempotency';
import type { Request, Response } from 'express';
import { defer, from, mergeMap, type Observable, of } from 'rxjs';
import { DataSource } from 'typeorm';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PRUNE_EVERY_MS = 60_000;

/**
 * `Idempotency-Key` on the alerts API's writes (@paper/idempotency): per account, the same key with the
 * same method, path and body answers the first 2xx answer again (`Idempotent-Replayed: true`); other
 * arguments `409 idempotency_key_mismatch`; while the first still runs, a retry waits for it (up to
 * 10 s), then `409 idempotency_key_in_progress`. Errors are not kept: the key can be used again.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');
  private readonly store: PgIdempotencyStore;
  private lastPrune = 0;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.store = new PgIdempotencyStore(dataSource, 'alerts.idempotency_keys');
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { accountId?: string }>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (key === undefined || !WRITES.has(req.method) || !req.accountId || !req.path.startsWith('/api/'))
      return next.handle();
    if (typeof key !== 'string' || !isValidIdempotencyKey(key))
      throw new AlertsException(
        AlertsErrorCode.ValidationFailed,
        'Idempotency-Key must be 1 to 255 visible ASCII characters.',
      );
    const scope = req.accountId;
    const fingerprint = requestFingerprint(req.method, req.originalUrl, req.body ?? null);
    this.pruneNowAndThen();
    return from(claimIdempotencyKey(this.store, scope, key, fingerprint)).pipe(
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
        return this.run(next, scope, key, res);
      }),
    );
  }

  /** Runs the request; keeps a 2xx answer for replays, forgets the key otherwise. */
  private run(next: CallHandler, scope: string, key: string, res: Response): Observable<unknown> {
    return defer(async () => {
      let body: unknown;
      try {
        body = await new Promise((resolve, reject) => {
          let last: unknown;
          next.handle().subscribe({ next: (v) => (last = v), error: reject, complete: () => resolve(last) });
        });
      } catch (error) {
        await this.store.release(scope, key);
        throw error;
      }
      const status = res.statusCode;
      if (status < 300 && isKeptAnswer(status)) await this.store.complete(scope, key, { status, body: body ?? null });
      else await this.store.release(scope, key);
      return body;
    });
  }

  /** Deletes keys past their retention, at most once a minute per process. */
  private pruneNowAndThen(): void {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    this.store
      .prune(IDEMPOTENCY_RETENTION_MS)
      .catch((error: Error) => this.logger.warn(`pruning idempotency keys failed: ${error.message}`));
  }
}

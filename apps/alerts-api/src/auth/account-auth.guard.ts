import {
  applyDecorators,
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { ApiErrors } from '../errors/error-body.dto';
import type { Request } from 'express';
import { IdempotencyScopes } from '../idempotency/idempotency-scopes';
import { StorageReadyGuard } from '../storage/storage-ready.guard';
import { AccountAuthService } from './account-auth.service';

type AuthedRequest = Request & { accountId?: string };
const REPLAY_ONLY = Symbol('replay only');

/** A request let through without an account, to be replayed only; it carries the refusal it got. */
export type ReplayOnlyRequest = Request & { [REPLAY_ONLY]?: unknown };

/** The refusal of a request that may only be replayed, or undefined for every other request. */
export function replayOnlyRefusal(req: Request): unknown {
  return (req as ReplayOnlyRequest)[REPLAY_ONLY];
}

/**
 * Lets only requests with a valid account token through; the account id goes on the request. The one
 * exception: a retry of the account's deletion with its Idempotency-Key, whose answer was kept under the
 * token (IdempotencyScopes); it goes on without an account, to be replayed, and gets its 401 if there is
 * nothing to replay. A dead token authenticates nothing else.
 */
@Injectable()
export class AccountAuthGuard implements CanActivate {
  constructor(
    private readonly auth: AccountAuthService,
    private readonly idempotency: IdempotencyScopes,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthedRequest & ReplayOnlyRequest>();
    try {
      req.accountId = await this.auth.authenticate(req.headers.authorization);
    } catch (refusal) {
      if (!(await this.idempotency.keptForRefusedToken(context))) throw refusal;
      req[REPLAY_ONLY] = refusal;
    }
    return true;
  }
}

/** Needs storage, then a valid account token (503 before 401 before validation). */
export function Authenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(StorageReadyGuard, AccountAuthGuard), ApiBearerAuth('account'), ApiErrors(401, 503));
}

/** The authenticated account's id. */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const id = context.switchToHttp().getRequest<AuthedRequest>().accountId;
  if (!id) throw new Error('CurrentAccount used on an endpoint without @Authenticated()');
  return id;
});

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
import { StorageReadyGuard } from '../storage/storage-ready.guard';
import { AccountAuthService } from './account-auth.service';

type AuthedRequest = Request & { accountId?: string };

/** Lets only requests with a valid account token through; the account id goes on the request. */
@Injectable()
export class AccountAuthGuard implements CanActivate {
  constructor(private readonly auth: AccountAuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    req.accountId = await this.auth.authenticate(req.headers.authorization);
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

import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentAccount } from '../auth/account-auth.guard';
import { ScopedByAccountToken, ScopedByIdempotencyKey } from '../idempotency/idempotency-scopes';
import { NeedsStorage } from '../storage/storage-ready.guard';
import { AccountsService, CreatedAccountView, MeView } from '@paper/alerts-accounts';

@ApiTags('account')
@Controller('api')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post('accounts')
  @NeedsStorage()
  @ScopedByIdempotencyKey()
  @ApiOperation({
    operationId: 'createAccount',
    summary:
      'Create a subscription; the bearer token is returned once. No request body is needed (any body is ignored).',
    description:
      'With an Idempotency-Key (at least 32 characters, a random UUID v4: it is the only secret guarding the ' +
      'replay), a retry within 24 hours answers the same account and token.',
  })
  @ApiCreatedResponse({ type: CreatedAccountView })
  create(): Promise<CreatedAccountView> {
    return this.accounts.create();
  }

  @Get('me')
  @Authenticated()
  @ApiOperation({ operationId: 'getMe', summary: 'The account with its limits, watches, channels and protocol rules' })
  @ApiOkResponse({ type: MeView })
  me(@CurrentAccount() accountId: string): Promise<MeView> {
    return this.accounts.me(accountId);
  }

  @Delete('me')
  @Authenticated()
  @ScopedByAccountToken()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteMe',
    summary:
      'Delete the account and everything under it (watches, channels, rules, alerts, deliveries, queued jobs); the ' +
      'token stops working',
    description:
      'A retry with the same token and Idempotency-Key answers the first answer again (the token is dead, but ' +
      'authenticates that replay only); without the key a second DELETE answers 401.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  async remove(@CurrentAccount() accountId: string): Promise<void> {
    await this.accounts.remove(accountId);
  }
}

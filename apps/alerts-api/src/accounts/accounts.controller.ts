import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentAccount } from '../auth/account-auth.guard';
import { NeedsStorage } from '../storage/storage-ready.guard';
import { AccountsService, CreatedAccountView, MeView } from '@paper/alerts-accounts';

@ApiTags('account')
@Controller('api')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post('accounts')
  @NeedsStorage()
  @ApiOperation({
    operationId: 'createAccount',
    summary:
      'Create a subscription; the bearer token is returned once. No request body is needed (any body is ignored).',
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
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteMe',
    summary:
      'Delete the account and everything under it (watches, channels, rules, alerts, deliveries, queued jobs); the ' +
      'token stops working',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  async remove(@CurrentAccount() accountId: string): Promise<void> {
    await this.accounts.remove(accountId);
  }
}

import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../errors/error-body.dto';
import { Authenticated, CurrentAccount } from '../auth/account-auth.guard';
import { TelegramLinkView } from './telegram-link.dto';
import { TelegramLinkService } from './telegram-link.service';

@ApiTags('channels')
@Authenticated()
@Controller('api/telegram')
export class TelegramLinkController {
  constructor(private readonly links: TelegramLinkService) {}

  @Post('link')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createTelegramLink',
    summary:
      'Mint a single-use code (valid 15 minutes) that links a Telegram chat as a channel when sent to the bot as ' +
      '/start <code>',
  })
  @ApiCreatedResponse({ type: TelegramLinkView })
  @ApiErrors(409)
  link(@CurrentAccount() accountId: string): Promise<TelegramLinkView> {
    return this.links.mint(accountId);
  }
}

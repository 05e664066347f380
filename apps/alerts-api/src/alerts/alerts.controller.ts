import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentAccount } from '../auth/account-auth.guard';
import { AlertsPageView, AlertsQueryDto, AlertsService } from '@paper/alerts-accounts';
import { ApiErrors } from '../errors/error-body.dto';

@ApiTags('alerts')
@Authenticated()
@Controller('api/alerts')
export class AlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listAlerts',
    summary: 'Alert history, newest first, with per-channel delivery status (cursor pagination with limit and before)',
  })
  @ApiOkResponse({ type: AlertsPageView })
  @ApiErrors(400)
  list(@CurrentAccount() accountId: string, @Query() query: AlertsQueryDto): Promise<AlertsPageView> {
    return this.alerts.page(accountId, query.limit, query.before);
  }
}

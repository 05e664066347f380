import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DeadDeliveriesView, DeadQueryDto, DeliveryView } from '@paper/alerts-accounts';
import { ApiErrors } from '../errors/error-body.dto';
import { ApiIdParam, IdParamPipe } from '../validation/id-param.pipe';
import { Authenticated, CurrentAccount } from '../auth/account-auth.guard';
import { DeliveriesService } from './deliveries.service';

@ApiTags('alerts')
@Authenticated()
@Controller('api/deliveries')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get('dead')
  @ApiOperation({ operationId: 'listDeadDeliveries', summary: 'Dead-lettered deliveries, newest first' })
  @ApiOkResponse({ type: DeadDeliveriesView })
  @ApiErrors(400)
  async dead(@CurrentAccount() accountId: string, @Query() query: DeadQueryDto): Promise<DeadDeliveriesView> {
    return { deliveries: await this.deliveries.dead(accountId, query.limit) };
  }

  @Post(':id/retry')
  @HttpCode(202)
  @ApiIdParam('delivery')
  @ApiOperation({
    operationId: 'retryDelivery',
    summary: 'Re-queue one dead-lettered delivery (same event id, signed afresh when sent)',
  })
  @ApiAcceptedResponse({ type: DeliveryView, description: 'Queued again' })
  @ApiErrors(404, 409)
  retry(
    @CurrentAccount() accountId: string,
    @Param('id', new IdParamPipe('delivery')) id: string,
  ): Promise<DeliveryView> {
    return this.deliveries.retry(accountId, id);
  }
}

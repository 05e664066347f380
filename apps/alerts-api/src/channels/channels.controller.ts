import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentAccount } from '../auth/account-auth.guard';
import {
  ChannelDetailView,
  ChannelsService,
  ChannelTestResultView,
  ChannelView,
  CreateChannelDto,
  CreatedChannelView,
  RecoverChannelDto,
  RecoverResultView,
  RotatedSecretView,
  UpdateChannelDto,
} from '@paper/alerts-accounts';
import { ApiErrors } from '../errors/error-body.dto';
import { ApiIdParam, IdParamPipe } from '../validation/id-param.pipe';
import { ChannelHealthService } from './channel-health.service';
import { ChannelTestService } from './channel-test.service';

@ApiTags('channels')
@Authenticated()
@Controller('api/channels')
export class ChannelsController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly tester: ChannelTestService,
    private readonly health: ChannelHealthService,
  ) {}

  @Get(':id')
  @ApiIdParam('channel')
  @ApiOperation({
    operationId: 'getChannel',
    summary: 'A channel with its health: deliveries by state, the last error, p50/p99 latency over 24 hours',
  })
  @ApiOkResponse({ type: ChannelDetailView })
  @ApiErrors(404)
  detail(
    @CurrentAccount() accountId: string,
    @Param('id', new IdParamPipe('channel')) id: string,
  ): Promise<ChannelDetailView> {
    return this.health.detail(accountId, id);
  }

  @Post(':id/recover')
  @HttpCode(200)
  @ApiIdParam('channel')
  @ApiOperation({
    operationId: 'recoverChannel',
    summary:
      'Re-queue every failed or dead delivery of the channel for alerts since a time (at most 1000 per call, each ' +
      'once)',
  })
  @ApiOkResponse({ type: RecoverResultView })
  @ApiErrors(400, 404)
  recover(
    @CurrentAccount() accountId: string,
    @Param('id', new IdParamPipe('channel')) id: string,
    @Body() dto: RecoverChannelDto,
  ): Promise<RecoverResultView> {
    return this.health.recover(accountId, id, dto.since);
  }

  @Post()
  @ApiOperation({
    operationId: 'createChannel',
    summary: 'Add a Discord or signed-webhook channel (a webhook signing secret is returned once)',
  })
  @ApiCreatedResponse({ type: CreatedChannelView })
  @ApiErrors(400, 409)
  create(@CurrentAccount() accountId: string, @Body() dto: CreateChannelDto): Promise<CreatedChannelView> {
    return this.channels.create(accountId, dto);
  }

  @Patch(':id')
  @ApiIdParam('channel')
  @ApiOperation({ operationId: 'updateChannel', summary: 'Pause or resume a channel' })
  @ApiOkResponse({ type: ChannelView })
  @ApiErrors(400, 404)
  update(
    @CurrentAccount() accountId: string,
    @Param('id', new IdParamPipe('channel')) id: string,
    @Body() dto: UpdateChannelDto,
  ): Promise<ChannelView> {
    return this.channels.setStatus(accountId, id, dto.status);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiIdParam('channel')
  @ApiOperation({ operationId: 'deleteChannel', summary: 'Remove a channel (its pending deliveries go with it)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  async remove(
    @CurrentAccount() accountId: string,
    @Param('id', new IdParamPipe('channel')) id: string,
  ): Promise<void> {
    await this.channels.remove(accountId, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiIdParam('channel')
  @ApiOperation({
    operationId: 'rotateChannelSecret',
    summary:
      'Give a webhook channel a new signing secret (returned once); for 24 hours the replaced one signs too, two ' +
      'signatures per header',
  })
  @ApiOkResponse({ type: RotatedSecretView })
  @ApiErrors(404, 409)
  rotateSecret(
    @CurrentAccount() accountId: string,
    @Param('id', new IdParamPipe('channel')) id: string,
  ): Promise<RotatedSecretView> {
    return this.channels.rotateSecret(accountId, id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiIdParam('channel')
  @ApiOperation({
    operationId: 'testChannel',
    summary:
      "Send a real test message to an active channel (at most 5 per minute per channel, within the receiver's rate " +
      'limit shared with alert deliveries)',
  })
  @ApiOkResponse({
    type: ChannelTestResultView,
    description: 'The attempt was made; `delivered` tells whether the receiver accepted it',
  })
  @ApiErrors(404, 409, 429)
  test(
    @CurrentAccount() accountId: string,
    @Param('id', new IdParamPipe('channel')) id: string,
  ): Promise<ChannelTestResultView> {
    return this.tester.test(accountId, id);
  }
}

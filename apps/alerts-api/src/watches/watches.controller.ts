import { Body, Controller, Delete, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated, CurrentAccount } from '../auth/account-auth.guard';
import { CreateWatchDto, UpdateWatchDto, WatchesService, WatchView } from '@paper/alerts-accounts';
import { ApiErrors } from '../errors/error-body.dto';
import { ApiIdParam, IdParamPipe } from '../validation/id-param.pipe';

@ApiTags('watches')
@Authenticated()
@Controller('api/watches')
export class WatchesController {
  constructor(private readonly watches: WatchesService) {}

  @Post()
  @ApiOperation({
    operationId: 'createWatch',
    summary: 'Watch a wallet (idempotent per address and role: the same id comes back)',
  })
  @ApiCreatedResponse({ type: WatchView, description: 'New watch' })
  @ApiOkResponse({
    type: WatchView,
    description: 'A watch of this address and role already existed; label and rules of the request were applied to it',
  })
  @ApiErrors(400, 409)
  async create(
    @CurrentAccount() accountId: string,
    @Body() dto: CreateWatchDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WatchView> {
    const { watch, created } = await this.watches.create(accountId, dto);
    res.status(created ? 201 : 200);
    return watch;
  }

  @Patch(':id')
  @ApiIdParam('watch')
  @ApiOperation({ operationId: 'updateWatch', summary: 'Change label and (partial) rules' })
  @ApiOkResponse({ type: WatchView })
  @ApiErrors(400, 404)
  update(
    @CurrentAccount() accountId: string,
    @Param('id', new IdParamPipe('watch')) id: string,
    @Body() dto: UpdateWatchDto,
  ): Promise<WatchView> {
    return this.watches.update(accountId, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiIdParam('watch')
  @ApiOperation({ operationId: 'deleteWatch', summary: 'Stop watching' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  async remove(@CurrentAccount() accountId: string, @Param('id', new IdParamPipe('watch')) id: string): Promise<void> {
    await this.watches.remove(accountId, id);
  }
}

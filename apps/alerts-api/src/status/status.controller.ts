import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StatusView } from './status.dto';
import { StatusService } from './status.service';

@ApiTags('service')
@Controller('api/status')
export class StatusController {
  constructor(private readonly status: StatusService) {}

  @Get()
  @ApiOperation({
    operationId: 'getStatus',
    summary:
      'Readiness, channel availability, limits and the last scheduled poll (200 even while storage is not ready)',
  })
  @ApiOkResponse({ type: StatusView })
  get(): Promise<StatusView> {
    return this.status.status();
  }
}

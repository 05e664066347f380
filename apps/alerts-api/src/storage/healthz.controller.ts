import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { StorageReadiness } from './storage-readiness.service';

class HealthzView {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  status!: 'ok' | 'unavailable';

  @ApiProperty({ enum: ['ready', 'not_ready'] })
  database!: 'ready' | 'not_ready';
}

@ApiTags('service')
@Controller()
export class HealthzController {
  constructor(private readonly readiness: StorageReadiness) {}

  @Get('healthz')
  @ApiOperation({ operationId: 'healthz', summary: 'Storage health: 200 when the schema is applied, 503 until then' })
  @ApiOkResponse({ type: HealthzView })
  @ApiServiceUnavailableResponse({
    type: HealthzView,
    description: '`{ status: "unavailable", database: "not_ready" }`',
  })
  async healthz(@Res({ passthrough: true }) res: Response): Promise<HealthzView> {
    const ready = await this.readiness.isReady();
    res.status(ready ? 200 : 503);
    return ready ? { status: 'ok', database: 'ready' } : { status: 'unavailable', database: 'not_ready' };
  }
}

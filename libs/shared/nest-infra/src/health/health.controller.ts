import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthRegistry } from './health-registry';

/** Kubernetes probes: /livez (process is up) and /readyz (its PostgreSQL and Redis connections work). */
@Controller()
export class HealthController {
  constructor(private readonly registry: HealthRegistry) {}

  @Get('livez')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    const report = await this.registry.readiness();
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}

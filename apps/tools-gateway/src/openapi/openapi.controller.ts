import { Controller, Get, Inject, Res } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { Response } from 'express';
import type { ToolsGatewayConfig } from '../config/tools-gateway.config';
import { sendJson } from '../tools/rest-tool-calls.service';
import { buildOpenApiDocument } from './openapi.builder';

/** The OpenAPI 3.1 document, at /openapi.json and /.well-known/openapi.json. */
@Controller()
export class OpenApiController {
  private readonly body: string;

  constructor(@Inject(APP_CONFIG) config: ToolsGatewayConfig) {
    this.body = JSON.stringify(buildOpenApiDocument(config.PUBLIC_BASE_URL));
  }

  @Get('openapi.json')
  openapi(@Res() res: Response): void {
    this.send(res);
  }

  @Get('.well-known/openapi.json')
  wellKnown(@Res() res: Response): void {
    this.send(res);
  }

  private send(res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=300');
    sendJson(res, 200, this.body);
  }
}

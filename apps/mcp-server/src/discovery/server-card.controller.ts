import { Controller, Get, Inject, Res } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { Response } from 'express';
import type { McpServerConfig } from '../config/mcp-server.config';
import { serverCard } from './server-card';

/** `/.well-known/mcp/server-card`: the MCP Server Card (SEP-2127 draft), built once from the catalog. */
@Controller('.well-known/mcp')
export class ServerCardController {
  private readonly body: string;

  constructor(@Inject(APP_CONFIG) config: McpServerConfig) {
    this.body = JSON.stringify(serverCard(config.PUBLIC_BASE_URL));
  }

  @Get('server-card')
  card(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(this.body);
  }
}

import { Controller, Get, Inject, Res } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { Response } from 'express';
import type { McpServerConfig } from '../config/mcp-server.config';
import { protectedResourceMetadata } from './protected-resource-metadata';

/**
 * `/.well-known/oauth-protected-resource/mcp` (RFC 9728, the path derived from the resource URL) and the
 * root `/.well-known/oauth-protected-resource` that some clients try first: the same document.
 */
@Controller('.well-known/oauth-protected-resource')
export class ProtectedResourceController {
  private readonly body: string;

  constructor(@Inject(APP_CONFIG) config: McpServerConfig) {
    this.body = JSON.stringify(protectedResourceMetadata(config.PUBLIC_BASE_URL));
  }

  @Get()
  root(@Res() res: Response): void {
    this.send(res);
  }

  @Get('mcp')
  mcp(@Res() res: Response): void {
    this.send(res);
  }

  private send(res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(this.body);
  }
}

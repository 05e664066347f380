import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { PUBLIC_CACHE_SECONDS } from '@paper/contracts';
import type { Request, Response } from 'express';
import { RestToolCalls, sendJson } from './rest-tool-calls.service';
import { toolListingBody } from './tool-listing';

/** The public family: GET (query string) or POST (JSON body) /api/v1/tools/{name}, and the tool listing. */
@Controller('api/v1/tools')
export class PublicToolsController {
  private readonly listing = toolListingBody();

  constructor(private readonly calls: RestToolCalls) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.calls.limitPublic(req);
    res.setHeader('Cache-Control', `public, max-age=${PUBLIC_CACHE_SECONDS}`);
    sendJson(res, 200, this.listing);
  }

  @Get(':name')
  async get(@Param('name') name: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.calls.publicCall(name, { kind: 'query' }, req, res);
  }

  @Post(':name')
  async post(@Param('name') name: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.calls.publicCall(name, { kind: 'body' }, req, res);
  }
}

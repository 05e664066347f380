import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { PUBLIC_CACHE_SECONDS } from '@paper/contracts';
import type { Request, Response } from 'express';
import { type ArgsSource, RestToolCalls, sendJson } from './rest-tool-calls.service';
import { toolListingBody } from './tool-listing';

const QUERY: ArgsSource = { kind: 'query' };
const BODY: ArgsSource = { kind: 'body' };

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

  // The hot path: the tool name is read from req.params rather than through a parameter decorator.
  @Get(':name')
  get(@Req() req: Request<{ name: string }>, @Res() res: Response): Promise<void> {
    return this.calls.publicCall(req.params.name, QUERY, req, res);
  }

  @Post(':name')
  post(@Req() req: Request<{ name: string }>, @Res() res: Response): Promise<void> {
    return this.calls.publicCall(req.params.name, BODY, req, res);
  }
}

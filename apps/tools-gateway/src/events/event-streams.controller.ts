import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { EVENT_STREAM_PATHS, SCOPES, ToolErrorCode } from '@paper/contracts';
import { bearerChallenge, ToolError } from '@paper/tools-runtime';
import type { Request, Response } from 'express';
import { RestToolCalls } from '../tools/rest-tool-calls.service';
import { EventHub } from './event-hub.service';
import { resumeCursor, streamFilter } from './stream-filter';

/**
 * The exchange's server-sent-event streams (docs/tool-api.md, "Event streams"): `GET /api/v1/events`,
 * public (trades, market status, live prices), and `GET /api/v1/me/events`, everything of the
 * connected wallet (bearer token with trade:read). Both resume from `Last-Event-ID`.
 */
@Controller()
export class EventStreamsController {
  constructor(
    private readonly hub: EventHub,
    private readonly calls: RestToolCalls,
  ) {}

  @Get(EVENT_STREAM_PATHS.public.slice(1))
  async publicStream(
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const filter = streamFilter(query, {});
    const resume = resumeCursor(req.headers['last-event-id'], query);
    await this.calls.limitPublic(req);
    this.refuseWhenFull();
    await this.hub.attach(res, filter, resume);
  }

  @Get(EVENT_STREAM_PATHS.me.slice(1))
  async meStream(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const ctx = await this.calls.meContext(req);
    if (!ctx.scopes.includes(SCOPES.read)) {
      throw new ToolError(
        ToolErrorCode.InsufficientScope,
        `The event stream needs the ${SCOPES.read} scope. Connect again and grant it.`,
        {
          'WWW-Authenticate': bearerChallenge('insufficient_scope', SCOPES.read),
        },
      );
    }
    const filter = streamFilter(query, { connectedWallet: ctx.wallet! });
    const resume = resumeCursor(req.headers['last-event-id'], query);
    res.setHeader('Vary', 'Authorization');
    this.refuseWhenFull();
    await this.hub.attach(res, filter, resume);
  }

  private refuseWhenFull(): void {
    if (this.hub.full) {
      throw new ToolError(
        ToolErrorCode.ExchangeUnavailable,
        'This server has as many event-stream clients as it serves; retry in a few seconds (another replica may take you).',
        {
          'Retry-After': '5',
        },
      );
    }
  }
}

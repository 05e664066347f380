import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { EVENT_STREAM_PATHS, SCOPES, ToolErrorCode } from '@paper/contracts';
import { bearerChallenge, ToolError } from '@paper/tools-runtime';
import { APP_CONFIG, clientIp } from '@paper/nest-infra';
import type { Request, Response } from 'express';
import type { ToolsGatewayConfig } from '../config/tools-gateway.config';
import { RestToolCalls } from '../tools/rest-tool-calls.service';
import { EventHub } from './event-hub.service';
import { resumeCursor, streamFilter } from './stream-filter';

/** Retry-After of a caller refused for holding too many streams. */
const STREAM_CAP_RETRY_AFTER_SECONDS = 5;

/**
 * The exchange's server-sent-event streams (docs/tool-api.md, "Event streams"): `GET /api/v1/events`,
 * public (trades, market status, live prices), and `GET /api/v1/me/events`, everything of the
 * connected wallet (bearer token with trade:read). Both resume from `Last-Event-ID`. A /me stream ends at
 * its token's expiry or its connection's revocation; a caller holds at most EVENT_STREAM_MAX_PER_CALLER.
 */
@Controller()
export class EventStreamsController {
  constructor(
    private readonly hub: EventHub,
    private readonly calls: RestToolCalls,
    @Inject(APP_CONFIG) private readonly config: Pick<ToolsGatewayConfig, 'EVENT_STREAM_MAX_PER_CALLER'>,
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
    const owner = { caller: `ip:${clientIp(req)}` };
    this.refuseWhenFull(owner.caller);
    await this.hub.attach(res, filter, resume, owner);
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
    const owner = { caller: `wallet:${ctx.wallet!}`, grantId: ctx.grantId, expiresAt: ctx.tokenExpiresAt };
    this.refuseWhenFull(owner.caller);
    await this.hub.attach(res, filter, resume, owner);
  }

  private refuseWhenFull(caller: string): void {
    if (this.hub.atCallerCap(caller)) {
      throw new ToolError(
        ToolErrorCode.RateLimited,
        `Too many event streams: one caller may hold ${this.config.EVENT_STREAM_MAX_PER_CALLER} open at once (per ` +
          `wallet on /api/v1/me/events, per client address on /api/v1/events). Close one, or retry when one has ended.`,
        { 'Retry-After': String(STREAM_CAP_RETRY_AFTER_SECONDS) },
      );
    }
    if (this.hub.full) {
      throw new ToolError(
        ToolErrorCode.ExchangeUnavailable,
        'This server has as many event-stream clients as it serves; retry in a few seconds (another replica may ' +
          'take you).',
        {
          'Retry-After': '5',
        },
      );
    }
  }
}

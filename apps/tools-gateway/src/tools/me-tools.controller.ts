import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { GET_TRADING_PERMISSIONS, type MeResultData, type ToolData, toolSuccess } from '@paper/contracts';
import { ToolExecutor } from '@paper/tools-runtime';
import type { Request, Response } from 'express';
import { RestToolCalls, sendJson } from './rest-tool-calls.service';

/** GET /api/v1/me reports what get_trading_permissions reports, under the same scope (trade:read). */
const PERMISSIONS_TOOL = GET_TRADING_PERMISSIONS;

/**
 * The authenticated family: POST /api/v1/me/tools/{name} runs any tool as the connected wallet;
 * GET with a query string is accepted for read-only tools (405 for the trading tools).
 */
@Controller('api/v1/me')
export class MeToolsController {
  constructor(
    private readonly calls: RestToolCalls,
    private readonly executor: ToolExecutor,
  ) {}

  /**
   * The connection: wallet, mode, whether it can trade, and the owner's guardrails. Needs trade:read (403 otherwise).
   */
  @Get()
  async me(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'private, no-store');
    const ctx = await this.calls.meContext(req);
    await this.executor.authorizeCall(PERMISSIONS_TOOL, ctx);
    const permissions = await this.executor.run(PERMISSIONS_TOOL, {}, ctx);
    // The handler's data is the catalog's output shape for this tool (checked against its schema in the tests).
    const p = permissions.data as ToolData<typeof GET_TRADING_PERMISSIONS>;
    const data: MeResultData = {
      wallet: ctx.wallet,
      mode: 'paper' as const,
      canTrade: p.canTrade,
      guardrails: p.guardrails,
      scopes: p.scopes,
      clientId: ctx.clientId ?? null,
      session: p.session,
      daily: p.daily,
      reason: p.reason,
    };
    sendJson(res, 200, JSON.stringify(toolSuccess(permissions.summary, data)));
  }

  @Get('tools/:name')
  async get(@Param('name') name: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.calls.meCall(name, { kind: 'query' }, req, res);
  }

  @Post('tools/:name')
  async post(@Param('name') name: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.calls.meCall(name, { kind: 'body' }, req, res);
  }
}

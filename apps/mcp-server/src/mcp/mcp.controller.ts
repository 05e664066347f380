import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { APP_CONFIG, JSON_RPC, clientIp, discardUnreadBody, refusedToolCall, tooDeepMessage } from '@paper/nest-infra';
import type { Request, Response } from 'express';
import type { McpServerConfig } from '../config/mcp-server.config';
import { type JsonRpcId, McpAccessGate } from './mcp-access.gate';
import { readMcpBody } from './mcp-request-body';
import { McpServerFactory } from './mcp-server.factory';

/** JSON-RPC error codes of the transport layer (as the MCP SDK uses them). */
const PARSE_ERROR = -32700;
const SERVER_ERROR = -32000;

/**
 * `{base}/mcp`: the tool catalog over MCP Streamable HTTP, stateless. POST carries JSON-RPC; there is no
 * server-initiated stream and no session, so GET and DELETE answer 405.
 */
@Controller('mcp')
export class McpController {
  constructor(
    private readonly gate: McpAccessGate,
    private readonly servers: McpServerFactory,
    @Inject(APP_CONFIG) private readonly config: McpServerConfig,
  ) {}

  @Post()
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    const body = await readMcpBody(req, this.config.MCP_MAX_BODY_BYTES);
    if (body.kind === 'invalid') return sendRpcError(res, 400, PARSE_ERROR, 'Parse error: Invalid JSON');
    if (body.kind === 'too_deep')
      return sendRpcError(res, 400, JSON_RPC.invalidRequest, tooDeepMessage(), null, { code: 'too_deep' });
    if (body.kind === 'too_large') {
      discardUnreadBody(req, res);
      return sendRpcError(
        res,
        413,
        SERVER_ERROR,
        `Payload too large: the body of POST /mcp may have at most ${this.config.MCP_MAX_BODY_BYTES} bytes.`,
      );
    }
    const value = body.kind === 'json' ? body.value : undefined;
    const messages = Array.isArray(value) ? value : value === undefined ? [] : [value];
    const access = await this.gate.check(req.headers.authorization, clientIp(req), messages);
    if (access.kind === 'refuse') {
      for (const [name, headerValue] of Object.entries(access.headers)) res.setHeader(name, headerValue);
      return sendRpcError(res, access.status, SERVER_ERROR, access.message, access.id, { code: access.code });
    }
    const refused = Array.isArray(value) ? undefined : refusedToolCall(value, () => true);
    if (refused) return void res.status(200).json(refused);
    await this.servers.handle(req, res, value, access.ctx);
  }

  @Get()
  get(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  @Delete()
  remove(@Res() res: Response): void {
    methodNotAllowed(res);
  }
}

function methodNotAllowed(res: Response): void {
  res.setHeader('Allow', 'POST, OPTIONS');
  sendRpcError(
    res,
    405,
    SERVER_ERROR,
    'Method not allowed: this MCP server is stateless; send JSON-RPC messages by POST (no event stream, no session ' +
      'to delete).',
  );
}

function sendRpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  id: JsonRpcId = null,
  data?: unknown,
): void {
  const error = data === undefined ? { code, message } : { code, message, data };
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ jsonrpc: '2.0', error, id }));
}

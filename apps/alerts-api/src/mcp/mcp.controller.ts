import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AlertsErrorCode } from '@paper/contracts';
import type { SchemaObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AlertsException } from '../app/alerts.exception';
import { ApiErrors } from '../app/error-body.dto';
import { AccountAuthService } from '../auth/account-auth.service';
import { StorageReadiness } from '../storage/storage-readiness.service';
import { McpServerFactory } from './mcp-server.factory';

const jsonRpc: SchemaObject = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    method: { type: 'string' },
    params: { type: 'object', additionalProperties: true },
  },
  additionalProperties: true,
};

function methodNotAllowed(): AlertsException {
  return new AlertsException(AlertsErrorCode.MethodNotAllowed, 'This MCP endpoint is stateless: send JSON-RPC messages with POST.', { Allow: 'POST' });
}

@ApiTags('mcp')
@Controller('mcp')
export class McpController {
  constructor(
    private readonly factory: McpServerFactory,
    private readonly auth: AccountAuthService,
    private readonly readiness: StorageReadiness,
  ) {}

  @Post()
  @ApiBearerAuth('account')
  @ApiOperation({
    operationId: 'mcp',
    summary: 'MCP server (Streamable HTTP, stateless, JSON responses)',
    description:
      'Send `Accept: application/json, text/event-stream`. Without a token: get_service_status and the read-only exchange_* tools. ' +
      'With `Authorization: Bearer <ACCOUNT_TOKEN>`: also the account tools, which cover every bearer-token endpoint: list_watches, add_watch, update_watch, ' +
      'remove_watch, list_channels, add_channel, set_channel_status, remove_channel, test_channel, create_telegram_link, get_protocol_rules, set_protocol_rules, ' +
      'list_alerts, list_dead_deliveries, retry_delivery, get_my_account, delete_my_account (listed either way; without a token they return a tool error ' +
      'asking for one). Accounts are created with POST /api/accounts only. A token that is present but invalid is refused with 401.',
  })
  @ApiBody({ description: 'A JSON-RPC 2.0 request or notification', schema: jsonRpc })
  @ApiOkResponse({ description: 'JSON-RPC response', schema: jsonRpc })
  @ApiErrors(401, 503)
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    let accountId: string | undefined;
    if (req.headers.authorization !== undefined) {
      await this.readiness.assertReady();
      accountId = await this.auth.authenticate(req.headers.authorization);
    }
    const server = this.factory.create(accountId);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  @Get()
  @HttpCode(405)
  @ApiOperation({ operationId: 'mcpGet', summary: 'Not available: the server is stateless (no SSE stream)' })
  @ApiErrors(405)
  get(): never {
    throw methodNotAllowed();
  }

  @Delete()
  @HttpCode(405)
  @ApiOperation({ operationId: 'mcpDelete', summary: 'Not available: there are no sessions to end' })
  @ApiErrors(405)
  remove(): never {
    throw methodNotAllowed();
  }
}

import { applyDecorators, Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { isCodedError } from '@paper/contracts';
import { JSON_RPC, clientIp, jsonRpcErrorBody, refusedToolCall } from '@paper/nest-infra';
import type { SchemaObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
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

/** A JSON-RPC error answered at the HTTP level (bad token, storage not ready, refused bodies, Host or Origin). */
const jsonRpcError: SchemaObject = {
  type: 'object',
  required: ['jsonrpc', 'error', 'id'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer' },
        message: { type: 'string' },
        data: { type: 'object', additionalProperties: true },
      },
    },
  },
};

const INVALID_TOKEN =
  'Invalid account token. This MCP endpoint takes an alerts account token, not OAuth: send Authorization: Bearer ' +
  '<ACCOUNT_TOKEN> ' +
  'with the token POST /api/accounts returned, or no Authorization header for the public tools.';

const RPC_ERRORS: Record<number, string> = {
  400:
    'The body is not JSON (-32700), not a JSON-RPC message (-32600), holds text that cannot be stored (-32602), ' +
    'or (MCP 2026-07-28) lacks the request `_meta` (-32602), names an unsupported protocol version (-32022, ' +
    '`data.supported`) or headers that do not match the body (-32020)',
  404: 'MCP 2026-07-28: a method the revision does not have (-32601)',
  403:
    'The account token is not valid (`data.code`: `invalid_token`; this endpoint takes an alerts account token, ' +
    'not OAuth, so it never answers 401), or the Host or Origin header is not accepted (DNS-rebinding protection)',
  405: 'GET and DELETE: the server is stateless (no event stream, no session to end); `Allow: POST`',
  406: 'The Accept header must list application/json and text/event-stream',
  413: 'The body is larger than 256 kB',
  415: 'The body must be JSON (`Content-Type: application/json`)',
  429: 'Too many requests from this account (with a token) or this address (without): `Retry-After` in seconds',
  503: 'Storage schema not applied yet (`Retry-After: 300`); only with a token',
};

/** GET and DELETE: a JSON-RPC error like every other answer of /mcp. */
function methodNotAllowed(res: Response): void {
  res.setHeader('Allow', 'POST');
  res
    .status(405)
    .json(
      jsonRpcErrorBody(
        JSON_RPC.serverError,
        'Method not allowed: this MCP endpoint is stateless; send JSON-RPC messages with POST.',
        { code: 'method_not_allowed' },
      ),
    );
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
  @ApiOperation({
    operationId: 'mcp',
    summary: 'MCP server (Streamable HTTP, stateless, JSON responses)',
    description:
      'Send `Accept: application/json, text/event-stream`. Without a token: get_service_status and the read-only ' +
      'exchange_* tools. ' +
      'With `Authorization: Bearer <ACCOUNT_TOKEN>`: also the account tools, which cover every bearer-token ' +
      'endpoint: list_watches, add_watch, update_watch, ' +
      'remove_watch, list_channels, add_channel, set_channel_status, remove_channel, test_channel, ' +
      'create_telegram_link, get_protocol_rules, set_protocol_rules, ' +
      'list_alerts, list_dead_deliveries, retry_delivery, get_my_account, delete_my_account (listed either way; ' +
      'without a token they return a tool error ' +
      'asking for one). Accounts are created with POST /api/accounts only. A token that is present but invalid is ' +
      'refused with 403 and a JSON-RPC error (`invalid_token`; not 401, which MCP clients answer with an OAuth ' +
      'sign-in). ' +
      'Errors answered before the MCP server runs are JSON-RPC errors too.',
  })
  @ApiBody({ description: 'A JSON-RPC 2.0 request or notification', schema: jsonRpc })
  @ApiOkResponse({ description: 'JSON-RPC response (a tool error is a result with isError: true)', schema: jsonRpc })
  @ApiResponse({ status: 202, description: 'A notification was accepted (no body)' })
  @ApiRpcErrors()
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    let accountId: string | undefined;
    if (req.headers.authorization !== undefined) {
      try {
        await this.readiness.assertReady();
        accountId = await this.auth.authenticate(req.headers.authorization);
      } catch (error) {
        if (!isCodedError(error)) throw error;
        const id = requestId(req.body);
        // A refused token is 403, not 401: MCP clients answer 401 by starting an OAuth sign-in, and this
        // endpoint takes an alerts account token, not OAuth.
        if (error.status === 401) {
          res.status(403).json(jsonRpcErrorBody(JSON_RPC.serverError, INVALID_TOKEN, { code: 'invalid_token' }, id));
          return;
        }
        for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
        res.status(error.status).json(jsonRpcErrorBody(JSON_RPC.serverError, error.message, { code: error.code }, id));
        return;
      }
    }
    const refused = Array.isArray(req.body)
      ? undefined
      : refusedToolCall(req.body, (name) => this.factory.toolNames.has(name));
    if (refused) {
      res.status(200).json(refused);
      return;
    }
    await this.factory.handle(req, res, req.body, { accountId, callerIp: clientIp(req) });
  }

  @Get()
  @ApiOperation({ operationId: 'mcpGet', summary: 'Not available: the server is stateless (no SSE stream)' })
  @ApiRpcErrors(405)
  get(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  @Delete()
  @ApiOperation({ operationId: 'mcpDelete', summary: 'Not available: there are no sessions to end' })
  @ApiRpcErrors(405)
  remove(@Res() res: Response): void {
    methodNotAllowed(res);
  }
}

function requestId(body: unknown): string | number | null {
  const id =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)['id']
      : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * Documents the HTTP-level JSON-RPC errors of /mcp: refused bodies and query strings, rate limits, and `only` (405 for
 * GET and DELETE).
 */
function ApiRpcErrors(only?: number): MethodDecorator {
  const statuses = only
    ? [400, 403, 413, 415, 429, only]
    : Object.keys(RPC_ERRORS)
        .map(Number)
        .filter((s) => s !== 405);
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: RPC_ERRORS[status] ?? '', schema: jsonRpcError })),
  );
}

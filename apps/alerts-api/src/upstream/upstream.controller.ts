import { All, Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AlertsErrorCode } from '@paper/contracts';
import { clientIp } from '@paper/nest-infra';
import type { Request, Response } from 'express';
import { AlertsException } from '@paper/alerts-accounts';
import { ApiErrors } from '../errors/error-body.dto';
import { PUBLIC_EXCHANGE_TOOLS, UpstreamClient, type UpstreamPath } from './upstream-client.service';

function search(req: Request): string {
  const index = req.originalUrl.indexOf('?');
  return index === -1 ? '' : req.originalUrl.slice(index).slice(0, 4096);
}

const envelope = {
  description: 'The exchange API answer, passed through (tool result envelope; 4xx answers keep their status)',
  schema: { type: 'object', additionalProperties: true },
};

/** Same-origin, read-only proxy of the exchange tool API's public family (GET only, allow-listed paths). */
@ApiTags('exchange proxy')
@Controller('api/upstream')
export class UpstreamController {
  constructor(private readonly upstream: UpstreamClient) {}

  @Get('tools')
  @ApiOperation({ operationId: 'upstreamListTools', summary: 'Proxy of GET /api/v1/tools (tool listing)' })
  @ApiOkResponse(envelope)
  @ApiErrors(502)
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.forward('tools', req, res);
  }

  @Get('tools/:name')
  @ApiOperation({
    operationId: 'upstreamRunTool',
    summary: 'Proxy of GET /api/v1/tools/{name}?arg=value for public read-only tools; query arguments pass through',
  })
  @ApiParam({ name: 'name', enum: PUBLIC_EXCHANGE_TOOLS })
  @ApiOkResponse(envelope)
  @ApiErrors(404, 502)
  tool(@Param('name') name: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.upstream.isPublicTool(name)) {
      throw new AlertsException(
        AlertsErrorCode.NotFound,
        `${name} is not a public read-only exchange tool. Allowed: ${PUBLIC_EXCHANGE_TOOLS.join(', ')}.`,
      );
    }
    return this.forward(`tools/${name}`, req, res);
  }

  @Get('openapi.json')
  @ApiOperation({ operationId: 'upstreamOpenApi', summary: "Proxy of the exchange tool API's OpenAPI document" })
  @ApiOkResponse({
    description: 'OpenAPI document of the exchange tool API',
    schema: { type: 'object', additionalProperties: true },
  })
  @ApiErrors(502)
  openapi(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.forward('openapi.json', req, res);
  }

  @All('*path')
  @ApiExcludeEndpoint()
  other(@Req() req: Request): never {
    const path = req.path.replace(/^\/api\/upstream\/?/, '');
    const known =
      path === 'tools' ||
      path === 'openapi.json' ||
      (path.startsWith('tools/') && this.upstream.isPublicTool(path.slice(6)));
    if (known && req.method !== 'GET') {
      throw new AlertsException(AlertsErrorCode.MethodNotAllowed, 'The exchange proxy is read-only: use GET.', {
        Allow: 'GET, HEAD',
      });
    }
    throw new AlertsException(
      AlertsErrorCode.NotFound,
      `/api/upstream/${path} is not proxied. Allowed: tools, tools/{name} (public read-only tools), openapi.json.`,
    );
  }

  private async forward(path: UpstreamPath, req: Request, res: Response): Promise<void> {
    const answer = await this.upstream.get(path, search(req), clientIp(req));
    res.status(answer.status).setHeader('content-type', answer.contentType);
    res.setHeader('cache-control', answer.cacheControl ?? 'no-store');
    res.end(answer.body);
  }
}

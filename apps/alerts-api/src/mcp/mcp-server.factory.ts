import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { AlertsService } from '../alerts/alerts.service';
import { ChannelsService } from '../channels/channels.service';
import { StatusService } from '../status/status.service';
import { UpstreamClient } from '../upstream/upstream-client.service';
import { WatchesService } from '../watches/watches.service';
import { registerAccountTools } from './account-tools';
import { registerExchangeTools } from './exchange-tools';
import { looseObject, ok } from './tool-result';

const INSTRUCTIONS =
  'Wallet alerts for the paper-trading exchange. Without a token: service status and read-only exchange data (exchange_* tools). ' +
  'With an account token (Authorization: Bearer <ACCOUNT_TOKEN>): also list and manage watches, channels and alerts. ' +
  'Alerts are best effort; the service is unofficial and not affiliated with the exchange.';

const statusOutput = looseObject({ ready: z.boolean(), channels: z.record(z.string(), z.boolean()), limits: z.record(z.string(), z.unknown()), lastScheduledPoll: z.unknown() });

/**
 * Builds the per-request MCP server (stateless Streamable HTTP). Schemas are module constants and the
 * JSON-schema validator is shared, so a server per request stays cheap.
 */
@Injectable()
export class McpServerFactory {
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(
    private readonly status: StatusService,
    private readonly upstream: UpstreamClient,
    private readonly watches: WatchesService,
    private readonly channels: ChannelsService,
    private readonly alerts: AlertsService,
  ) {}

  create(accountId: string | undefined): McpServer {
    const server = new McpServer(
      { name: 'paper-wallet-alerts', version: '1.0.0' },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: this.validator },
    );
    server.registerTool(
      'get_service_status',
      {
        title: 'Service status',
        description: 'Whether the alerts service is ready, which channel kinds are available, its limits and the last scheduled poll.',
        outputSchema: statusOutput,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async () => ok({ ...(await this.status.status()) }),
    );
    registerExchangeTools(server, this.upstream);
    registerAccountTools(server, accountId, { watches: this.watches, channels: this.channels, alerts: this.alerts });
    return server;
  }
}

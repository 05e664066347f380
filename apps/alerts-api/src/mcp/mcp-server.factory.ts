import { McpServer } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { Injectable } from '@nestjs/common';
import { McpEndpoint, type PooledMcpServer } from '@paper/nest-infra';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  AccountsService,
  AlertsService,
  ChannelsService,
  ProtocolRulesService,
  WatchesService,
} from '@paper/alerts-accounts';
import { ChannelTestService } from '../channels/channel-test.service';
import { DeliveriesService } from '../deliveries/deliveries.service';
import { StatusService } from '../status/status.service';
import { TelegramLinkService } from '../telegram/telegram-link.service';
import { UpstreamClient } from '../upstream/upstream-client.service';
import type { AccountToolServices } from './account-tool-kit';
import { registerAccountTools } from './account-tools';
import { registerExchangeTools } from './exchange-tools';
import { envelopeToolErrors, looseObject, ok } from './tool-result';

const INSTRUCTIONS =
  'Wallet alerts for the paper-trading exchange. Without a token: service status and read-only exchange data ' +
  '(exchange_* tools). ' +
  'With an account token (Authorization: Bearer <ACCOUNT_TOKEN>): also everything the REST API offers for that ' +
  'account: watches, channels ' +
  '(test messages, Telegram links), protocol rules, alerts, dead letters and their retry, the account itself. ' +
  'Accounts are created over REST (POST /api/accounts). ' +
  'Alerts are best effort; the service is unofficial and not affiliated with the exchange.';

const statusOutput = looseObject({
  ready: z.boolean(),
  channels: z.record(z.string(), z.boolean()),
  limits: z.record(z.string(), z.unknown()),
  lastScheduledPoll: z.unknown(),
});

const SERVER_INFO = { name: 'paper-wallet-alerts', version: '1.0.0' };

/**
 * The alerts service's MCP endpoint (see McpEndpoint: MCP 2025-11-25 and 2026-07-28, one pooled SDK
 * server per request in flight, bound to the request's account). Schemas are module constants and the
 * JSON-schema validator is shared. The tool list is the same for every caller and does not change
 * while the service runs: `tools.listChanged` is false.
 */
/** Who calls: the account of the request's token (undefined without one) and the client's address. */
export interface AlertsMcpCaller {
  accountId: string | undefined;
  /** Forwarded to the exchange by the exchange_* tools, so its per-caller limits see the real client. */
  callerIp: string;
}

const NO_CALLER: AlertsMcpCaller = { accountId: undefined, callerIp: 'unknown' };

@Injectable()
export class McpServerFactory {
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly services: AccountToolServices;
  /** The names of the tools every server lists (the same with and without a token). */
  readonly toolNames: ReadonlySet<string>;
  private readonly endpoint = new McpEndpoint<AlertsMcpCaller>({
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
    create: () => this.create(),
  });

  constructor(
    private readonly status: StatusService,
    private readonly upstream: UpstreamClient,
    accounts: AccountsService,
    watches: WatchesService,
    channels: ChannelsService,
    channelTests: ChannelTestService,
    telegramLinks: TelegramLinkService,
    protocolRules: ProtocolRulesService,
    alerts: AlertsService,
    deliveries: DeliveriesService,
  ) {
    this.services = { accounts, watches, channels, channelTests, telegramLinks, protocolRules, alerts, deliveries };
    // The SDK keeps registered tools in a plain object; their names are read once from a first server.
    this.toolNames = new Set(
      Object.keys(
        (this.build(() => NO_CALLER) as unknown as { _registeredTools: Record<string, unknown> })._registeredTools,
      ),
    );
  }

  /** Serves one POST with an already parsed body, for its caller (the account of its token, if any). */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, caller: AlertsMcpCaller): Promise<void> {
    return this.endpoint.handle(req, res, body, caller);
  }

  private create(): PooledMcpServer<AlertsMcpCaller> {
    let caller = NO_CALLER;
    const server = this.build(() => caller);
    return { server: server.server, bind: (next) => (caller = next) };
  }

  private build(caller: () => AlertsMcpCaller): McpServer {
    const server = new McpServer(SERVER_INFO, {
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: this.validator,
    });
    envelopeToolErrors(server);
    server.registerTool(
      'get_service_status',
      {
        title: 'Service status',
        description:
          'Whether the alerts service is ready, which channel kinds are available, its limits and the last scheduled ' +
          'poll.',
        outputSchema: statusOutput,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async () => ok({ ...(await this.status.status()) }),
    );
    registerExchangeTools(server, this.upstream, () => caller().callerIp);
    registerAccountTools(server, () => caller().accountId, this.services);
    server.server.registerCapabilities({ tools: { listChanged: false } });
    return server;
  }
}

import { type DynamicModule, Module } from '@nestjs/common';
import { acceptedAudiences } from '@paper/contracts';
import { createExchangeDataSource } from '@paper/exchange-data';
import { InfraModule } from '@paper/nest-infra';
import { ToolsRuntimeModule, toolsRuntimeOptions } from '@paper/tools-runtime';
import { ChartsController } from '../charts/charts.controller';
import type { ToolsGatewayConfig } from '../config/tools-gateway.config';
import { DocsController } from '../docs/docs.controller';
import { EventHub } from '../events/event-hub.service';
import { EventStreamsController } from '../events/event-streams.controller';
import { PriceRelay } from '../events/price-relay';
import { OpenApiController } from '../openapi/openapi.controller';
import { MeToolsController } from '../tools/me-tools.controller';
import { PublicToolsController } from '../tools/public-tools.controller';
import { RestToolCalls } from '../tools/rest-tool-calls.service';

@Module({})
export class AppModule {
  static forRoot(config: ToolsGatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot({
          config,
          database: { create: createExchangeDataSource, app: 'tools-gateway' },
          redis: config,
        }),
        // One protected resource for the tool catalog: the REST family accepts tokens for `{base}/mcp` (the
        // authorization server's default resource; MCP clients' tokens) and for its alias `{base}/api/v1`.
        // mcp-server accepts only `{base}/mcp`. Any other audience is refused (docs/tool-api.md).
        ToolsRuntimeModule.forRoot(toolsRuntimeOptions(config, acceptedAudiences(config.PUBLIC_BASE_URL))),
      ],
      controllers: [
        PublicToolsController,
        MeToolsController,
        EventStreamsController,
        OpenApiController,
        DocsController,
        ChartsController,
      ],
      providers: [RestToolCalls, EventHub, PriceRelay],
    };
  }
}

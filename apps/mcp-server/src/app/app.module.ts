import { type DynamicModule, Module } from '@nestjs/common';
import { mcpResource } from '@paper/contracts';
import { createExchangeDataSource } from '@paper/exchange-data';
import { InfraModule } from '@paper/nest-infra';
import { ToolsRuntimeModule, toolsRuntimeOptions } from '@paper/tools-runtime';
import type { McpServerConfig } from '../config/mcp-server.config';
import { McpAccessGate } from '../mcp/mcp-access.gate';
import { McpServerFactory } from '../mcp/mcp-server.factory';
import { McpToolCalls } from '../mcp/mcp-tool-calls.service';
import { McpController } from '../mcp/mcp.controller';
import { ServerCardController } from '../discovery/server-card.controller';
import { ProtectedResourceController } from '../protected-resource/protected-resource.controller';

@Module({})
export class AppModule {
  static forRoot(config: McpServerConfig): DynamicModule {
    // MCP requires the audience to be exactly the resource of the protected-resource metadata: `{base}/mcp`.
    // A token for the REST alias `{base}/api/v1`, or any other audience, is refused (docs/mcp.md).
    const runtime = ToolsRuntimeModule.forRoot(toolsRuntimeOptions(config, [mcpResource(config.PUBLIC_BASE_URL)]));
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot({
          config,
          database: { create: createExchangeDataSource, app: 'mcp-server' },
          redis: config,
        }),
        runtime,
      ],
      controllers: [McpController, ProtectedResourceController, ServerCardController],
      providers: [McpAccessGate, McpServerFactory, McpToolCalls],
    };
  }
}

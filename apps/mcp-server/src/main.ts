import 'reflect-metadata';
import { APP_CONFIG, GlobalExceptionFilter, mcpTransportSecurity, runApp } from '@paper/nest-infra';
import { AppModule } from './app/app.module';
import { type McpServerConfig, mcpServerConfigSchema } from './config/mcp-server.config';
import { McpController } from './mcp/mcp.controller';
import { mcpCors } from './mcp/mcp-cors.middleware';
import { mcpPostAheadOfRouter } from './mcp/mcp-post.middleware';

void runApp({
  name: 'mcp-server',
  schema: mcpServerConfigSchema,
  module: (config) => AppModule.forRoot(config),
  // POST /mcp bodies are read by the MCP controller (JSON-RPC errors, checks before the transport).
  rawBodyPaths: ['/mcp'],
  configure: (app, logger) => {
    const config = app.get<McpServerConfig>(APP_CONFIG);
    app.use(
      mcpTransportSecurity({
        publicBaseUrl: config.PUBLIC_BASE_URL,
        allowedOrigins: config.MCP_ALLOWED_ORIGINS,
        development: config.NODE_ENV !== 'production',
      }),
    );
    app.use(mcpCors);
    app.use(mcpPostAheadOfRouter(app.get(McpController), new GlobalExceptionFilter('tool-envelope', logger)));
  },
});

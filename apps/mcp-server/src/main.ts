import 'reflect-metadata';
import { runApp } from '@paper/nest-infra';
import { AppModule } from './app/app.module';
import { mcpServerConfigSchema } from './config/mcp-server.config';
import { mcpCors } from './mcp/mcp-cors.middleware';

void runApp({
  name: 'mcp-server',
  schema: mcpServerConfigSchema,
  module: (config) => AppModule.forRoot(config),
  // POST /mcp bodies are read by the MCP controller (JSON-RPC errors, checks before the transport).
  rawBodyPaths: ['/mcp'],
  configure: (app) => {
    app.use(mcpCors);
  },
});

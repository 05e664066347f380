import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { LEGACY_RESOURCE_URI_KEY, MCP_APPS_EXTENSION_ID, MCP_APP_MIME_TYPE } from './mcp-apps-protocol';

describe('MCP Apps names', () => {
  it('are those of @modelcontextprotocol/ext-apps', () => {
    expect(MCP_APPS_EXTENSION_ID).toBe(EXTENSION_ID);
    expect(MCP_APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    expect(LEGACY_RESOURCE_URI_KEY).toBe(RESOURCE_URI_META_KEY);
  });
});

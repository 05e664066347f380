import type { Tool } from '@modelcontextprotocol/server';
import { TOOL_CATALOG, type ToolDefinition, toolJsonSchema, toolViewUri } from '@paper/contracts';
import { LEGACY_RESOURCE_URI_KEY, type McpUiToolMeta } from '../views/mcp-apps-protocol';
import { serialisedOnce } from '@paper/nest-infra';

/**
 * One tools/list entry of a catalog tool: the same name, title and description as the REST family, the
 * JSON Schema of its arguments (bounds and defaults) and of its result `data` (the structuredContent),
 * the annotations (read-only tools `readOnlyHint`; open_position and close_positions `destructiveHint`),
 * and for a tool with a view, `_meta.ui.resourceUri` (MCP Apps: hosts that support it draw the result
 * with that `ui://` resource; the legacy flat `ui/resourceUri` key is kept for older hosts).
 */
export function mcpToolEntry(tool: ToolDefinition): Tool {
  const entry: Tool = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolJsonSchema(tool, 'input') as Tool['inputSchema'],
    outputSchema: toolJsonSchema(tool, 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
  if (!tool.view) return entry;
  const ui: McpUiToolMeta = { resourceUri: toolViewUri(tool.view) };
  return { ...entry, _meta: { ui, [LEGACY_RESOURCE_URI_KEY]: ui.resourceUri } };
}

/**
 * The whole tools/list result, built once at start-up, frozen and serialised once, and shared by every
 * per-request server, so listing costs neither schema conversion nor serialisation.
 */
export function buildMcpToolListing(catalog: readonly ToolDefinition[] = TOOL_CATALOG): { tools: Tool[] } {
  return serialisedOnce({ tools: catalog.map(mcpToolEntry) });
}

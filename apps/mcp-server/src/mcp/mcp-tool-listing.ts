import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_CATALOG, type ToolDefinition, toolJsonSchema } from '@paper/contracts';

/**
 * One tools/list entry of a catalog tool: the same name, title and description as the REST family, the
 * JSON Schema of its arguments (bounds and defaults) and of its result `data` (the structuredContent),
 * and the annotations (read-only tools `readOnlyHint`; open_position and close_positions `destructiveHint`).
 */
export function mcpToolEntry(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolJsonSchema(tool, 'input') as Tool['inputSchema'],
    outputSchema: toolJsonSchema(tool, 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * The whole tools/list result, built once at start-up and shared (read-only) by every per-request
 * server, so listing costs no schema conversion.
 */
export function buildMcpToolListing(catalog: readonly ToolDefinition[] = TOOL_CATALOG): { tools: Tool[] } {
  const tools = catalog.map(mcpToolEntry);
  for (const tool of tools) deepFreeze(tool);
  return Object.freeze({ tools: Object.freeze(tools) as Tool[] });
}

function deepFreeze(value: unknown): void {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
}

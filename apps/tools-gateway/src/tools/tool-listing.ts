import {
  TOOL_CATALOG,
  type ToolDefinition,
  type ToolListingEntry,
  requiredScopes,
  toolJsonSchema,
  toolSuccess,
} from '@paper/contracts';

/** One entry of GET /api/v1/tools. */
export function toolListingEntry(tool: ToolDefinition): ToolListingEntry {
  const publicFamily = tool.family === 'public';
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    annotations: tool.annotations,
    family: tool.family,
    scope: tool.scope,
    wallet: tool.wallet,
    endpoints: {
      public: publicFamily
        ? { path: `/api/v1/tools/${tool.name}`, methods: ['GET', 'POST'], operationId: tool.name }
        : null,
      me: {
        path: `/api/v1/me/tools/${tool.name}`,
        methods: publicFamily ? ['GET', 'POST'] : ['POST'],
        operationId: `me_${tool.name}`,
        scopes: requiredScopes(tool),
      },
    },
    inputSchema: toolJsonSchema(tool, 'input'),
    outputSchema: toolJsonSchema(tool, 'output'),
  };
}

/** The serialised listing (envelope), built once. */
export function toolListingBody(): string {
  const tools = TOOL_CATALOG.map(toolListingEntry);
  const publicCount = tools.filter((t) => t.endpoints.public).length;
  return JSON.stringify(
    toolSuccess(
      `${tools.length} tools: ${publicCount} on both /api/v1/tools/{name} (no token) and /api/v1/me/tools/{name} ` +
        `(OAuth), ` +
        `and ${tools.length - publicCount} trading tools only on /api/v1/me/tools/{name} (scope trade:write).`,
      { tools },
    ),
  );
}

import {
  SCOPES,
  TOOL_CATALOG,
  type ToolDefinition,
  publicTools,
  requiredScopes,
  toolJsonSchema,
} from '@paper/contracts';
import {
  bodyErrorResponses,
  errorResponses,
  IDEMPOTENCY_KEY_PARAMETER,
  idempotencyErrorResponses,
  openApiComponents,
  ref,
  REPLAYED_HEADER,
} from './openapi-components';
import { eventStreamPaths } from './event-stream-paths';

export const OPENAPI_VERSION = '0.1.0';

type Json = Record<string, unknown>;

const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** Component schema names of a tool. */
export function schemaNames(tool: ToolDefinition) {
  const base = pascal(tool.name);
  return { input: `${base}Input`, data: `${base}Data`, result: `${base}Result` };
}

function operation(tool: ToolDefinition, family: 'public' | 'me'): Json {
  const names = schemaNames(tool);
  const me = family === 'me';
  const scopes = requiredScopes(tool);
  const consequential = tool.annotations.destructiveHint;
  const write = me && !tool.annotations.readOnlyHint;
  return {
    operationId: me ? `me_${tool.name}` : tool.name,
    summary: tool.title,
    description:
      tool.description +
      (consequential ? '\n\nConsequential: obtain an explicit confirmation from the user before calling.' : '') +
      (me
        ? `\n\nRuns as the connected wallet. Needs scope ${scopes.join(' and ')}.`
        : '\n\nNo authentication. Results are cached for 5 seconds.'),
    tags: [me ? (tool.family === 'me-only' ? 'trading' : 'account') : 'public'],
    ...(me ? { security: [{ oauth2: scopes }] } : { security: [] }),
    ...(write ? { parameters: [IDEMPOTENCY_KEY_PARAMETER] } : {}),
    requestBody: { required: false, content: { 'application/json': { schema: ref(names.input) } } },
    responses: {
      '200': {
        description: 'The tool result.',
        ...(write ? { headers: REPLAYED_HEADER } : {}),
        content: { 'application/json': { schema: ref(names.result) } },
      },
      ...errorResponses(me),
      ...(write ? idempotencyErrorResponses() : {}),
      ...bodyErrorResponses(),
    },
    'x-openai-isConsequential': consequential,
    'x-tool-annotations': tool.annotations,
  };
}

function queryOperation(family: 'public' | 'me'): Json {
  const me = family === 'me';
  const tools = publicTools();
  return {
    operationId: me ? 'me_run_tool_by_query' : 'run_tool_by_query',
    summary: me
      ? 'Run a read tool as the connected wallet with query-string arguments'
      : 'Run a public tool with query-string arguments',
    description:
      'The same tools as the POST operations, with the arguments in the query string (`?market=BTC&count=50`); ' +
      'numbers and booleans are coerced, ' +
      'list parameters accept repeated or comma-separated values, unknown parameters are refused.' +
      (me ? ' Only the read tools: the trading tools answer 405 and run by POST.' : ''),
    tags: [me ? 'account' : 'public'],
    ...(me ? { security: [{ oauth2: [SCOPES.read] }] } : { security: [] }),
    parameters: [
      {
        name: 'name',
        in: 'path',
        required: true,
        description: 'Tool name.',
        schema: { type: 'string', enum: tools.map((t) => t.name) },
      },
      {
        name: 'arguments',
        in: 'query',
        required: false,
        description: 'Tool arguments as query parameters.',
        style: 'form',
        explode: true,
        schema: { type: 'object', additionalProperties: { type: 'string' } },
      },
    ],
    responses: {
      '200': { description: 'The tool result.', content: { 'application/json': { schema: ref('ToolSuccess') } } },
      ...errorResponses(me),
    },
  };
}

/** The OpenAPI 3.1 description of the tool API, generated from the tool catalog. */
export function buildOpenApiDocument(publicBaseUrl: string): Json {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const paths: Json = {
    '/api/v1/tools': {
      get: {
        operationId: 'list_tools',
        summary: 'List the tools',
        description: 'Every tool with its description, annotations, families, scopes and JSON schemas.',
        tags: ['public'],
        security: [],
        responses: {
          '200': { description: 'The tool listing.', content: { 'application/json': { schema: ref('ToolListing') } } },
          ...errorResponses(false),
        },
      },
    },
    '/api/v1/tools/{name}': { get: queryOperation('public') },
    '/api/v1/me': {
      get: {
        operationId: 'me',
        summary: 'The connection',
        description:
          'The connected wallet, the mode (paper), whether it can trade, and the guardrails the owner approved.',
        tags: ['account'],
        security: [{ oauth2: [SCOPES.read] }],
        responses: {
          '200': { description: 'The connection.', content: { 'application/json': { schema: ref('MeResult') } } },
          ...errorResponses(true),
        },
      },
    },
    '/api/v1/me/tools/{name}': { get: queryOperation('me') },
  };
  const schemas: Json = {};
  for (const tool of TOOL_CATALOG) {
    const names = schemaNames(tool);
    schemas[names.input] = { title: `${tool.name} arguments`, ...toolJsonSchema(tool, 'input') };
    schemas[names.data] = { title: `${tool.name} data`, ...toolJsonSchema(tool, 'output') };
    schemas[names.result] = {
      type: 'object',
      required: ['ok', 'summary', 'data'],
      properties: {
        ok: { const: true },
        summary: { type: 'string' },
        data: ref(names.data),
        ...(tool.annotations.readOnlyHint
          ? {}
          : { replayed: { const: true, description: 'The first answer to the same client key, sent again.' } }),
      },
    };
    if (tool.family === 'public') paths[`/api/v1/tools/${tool.name}`] = { post: operation(tool, 'public') };
    paths[`/api/v1/me/tools/${tool.name}`] = { post: operation(tool, 'me') };
  }
  const streams = eventStreamPaths();
  Object.assign(paths, streams.paths);
  Object.assign(schemas, streams.schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Paper Perps tool API',
      version: OPENAPI_VERSION,
      description:
        'Market data, analytics, account views and guarded trading on a perpetual-futures paper exchange (BTC, ETH, ' +
        'up to 1000x). Every tool runs on the public family `/api/v1/tools/{name}` (no token) and on the ' +
        'authenticated family `/api/v1/me/tools/{name}` (OAuth, acting as the connected wallet); the trading tools ' +
        'only on the latter. Results use the envelope `{ok, summary, data}`; failures `{ok: false, error: {code, ' +
        'message}}`. Opening a position is two steps: preview_trade, then open_position with the quoteId.',
    },
    servers: [{ url: base }],
    tags: [
      { name: 'public', description: 'No authentication; cached for 5 seconds.' },
      { name: 'account', description: 'Authenticated family, scope trade:read.' },
      {
        name: 'trading',
        description:
          "Authenticated family, scope trade:write; signed by the session key within the owner's guardrails.",
      },
    ],
    paths,
    components: { ...openApiComponents(base), schemas: { ...openApiComponents(base).schemas, ...schemas } },
  };
}

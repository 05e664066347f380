import type { z } from 'zod';

/**
 * `public`: served on both families (`/api/v1/tools/{name}` and `/api/v1/me/tools/{name}`); `me-only`: only on `/me`.
 */
export type ToolFamily = 'public' | 'me-only';

/** The OAuth scope a tool needs on the authenticated family. */
export type ToolScope = 'trade:read' | 'trade:write';

/**
 * How a tool relates to a wallet: `none` never needs one; `optional` takes a `wallet` argument that
 * defaults to the connected wallet (`wallet_required` when neither is there); `connected` always acts
 * as the connected wallet (needs a token).
 */
export type ToolWalletUse = 'none' | 'optional' | 'connected';

/** MCP tool annotations (hints for clients, e.g. whether to ask the user before calling). */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * The interactive views MCP hosts can draw beside a tool's result (MCP Apps): `price-chart`
 * (get_price_chart), `trade-ticket` (preview_trade, with the confirmation that opens the position),
 * `account` (get_account, with Close buttons) and `liquidation-map` (get_liquidation_map).
 */
export const TOOL_VIEWS = ['price-chart', 'trade-ticket', 'account', 'liquidation-map'] as const;
export type ToolView = (typeof TOOL_VIEWS)[number];

/** The `ui://` resource of a view, as MCP Apps hosts read it (`resources/read`). */
export function toolViewUri(view: ToolView): string {
  return `ui://paper-perps/${view}`;
}

/**
 * One tool of the catalog: the single source of the REST routes, the validation, the OpenAPI document
 * and the MCP tool listing. `inputSchema` is a strict zod object (unknown parameters are refused) with
 * the bounds and defaults of the contract; `outputSchema` describes the `data` of a successful result.
 */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly annotations: ToolAnnotations;
  readonly inputSchema: I;
  readonly outputSchema: O;
  readonly family: ToolFamily;
  readonly scope: ToolScope;
  readonly wallet: ToolWalletUse;
  /** Results on the public family are cached for {@link PUBLIC_CACHE_SECONDS}. */
  readonly cacheable: boolean;
  /** The interactive view that draws the result in MCP hosts that support MCP Apps (MCP only; REST ignores it). */
  readonly view?: ToolView;
}

/**
 * The scopes a call of the tool needs on the authenticated family (and over MCP): trade:read for every
 * tool, plus trade:write for the trading tools. The one rule behind the executor's check, the listing,
 * the OpenAPI security requirements and the MCP challenges.
 */
export function requiredScopes(tool: Pick<ToolDefinition, 'scope'>): readonly ToolScope[] {
  return tool.scope === 'trade:write' ? ['trade:read', 'trade:write'] : ['trade:read'];
}

export type ToolInput<T extends ToolDefinition> = z.output<T['inputSchema']>;
export type ToolData<T extends ToolDefinition> = z.output<T['outputSchema']>;

export const READ_ONLY: ToolAnnotations = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/** Public endpoint results are served from a cache shared by every gateway replica for this long. */
export const PUBLIC_CACHE_SECONDS = 5;

/** A preview quote can be presented to open_position for this long (the default of QUOTE_TTL_SECONDS). */
export const QUOTE_VALIDITY_SECONDS = 180;

/** QUOTE_VALIDITY_SECONDS in words, for descriptions and pages ("3 minutes"). */
export const QUOTE_VALIDITY_TEXT = `${QUOTE_VALIDITY_SECONDS / 60} minutes`;

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  definition: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return Object.freeze({ ...definition, annotations: Object.freeze({ ...definition.annotations }) });
}

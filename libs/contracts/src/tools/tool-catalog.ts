import { z } from 'zod';
import { GET_ACCOUNT, GET_DEPOSIT_INFO, GET_PORTFOLIO_HISTORY, GET_TRADE_HISTORY } from './account.tools';
import { GET_LEADERBOARD, GET_RECENT_TRADES, GET_TOP_TRADES } from './activity.tools';
import { CALCULATE_POSITION } from './calculator.tools';
import { GET_EVENTS } from './events.tools';
import { GET_LIQUIDATION_MAP, GET_MARKETS, GET_PRICE_CHART, GET_PROTOCOL_STATS } from './market-data.tools';
import { GET_INTENT_STATUS, GET_TRADING_PERMISSIONS } from './session.tools';
import type { ToolDefinition } from './tool-definition';
import { CANCEL_INTENT, CLOSE_POSITIONS, OPEN_POSITION, PREVIEW_TRADE } from './trading.tools';

/** Every tool, in listing order: 15 on both families, then the 4 trading tools only on `/me`. */
export const TOOL_CATALOG: readonly ToolDefinition[] = Object.freeze([
  GET_MARKETS,
  GET_PRICE_CHART,
  GET_PROTOCOL_STATS,
  GET_LIQUIDATION_MAP,
  GET_LEADERBOARD,
  GET_TOP_TRADES,
  GET_RECENT_TRADES,
  GET_ACCOUNT,
  GET_TRADE_HISTORY,
  GET_PORTFOLIO_HISTORY,
  CALCULATE_POSITION,
  GET_DEPOSIT_INFO,
  GET_TRADING_PERMISSIONS,
  GET_INTENT_STATUS,
  GET_EVENTS,
  PREVIEW_TRADE,
  OPEN_POSITION,
  CLOSE_POSITIONS,
  CANCEL_INTENT,
] as ToolDefinition[]);

export type ToolName = (typeof TOOL_CATALOG)[number]['name'];

const BY_NAME = new Map(TOOL_CATALOG.map((tool) => [tool.name, tool]));

export function findTool(name: string): ToolDefinition | undefined {
  return BY_NAME.get(name);
}

/** Tools served on the public family (no token). */
export function publicTools(): ToolDefinition[] {
  return TOOL_CATALOG.filter((tool) => tool.family === 'public');
}

/** Trading tools: only on the authenticated family, scope trade:write. */
export function tradingTools(): ToolDefinition[] {
  return TOOL_CATALOG.filter((tool) => tool.family === 'me-only');
}

export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema (2020-12) of a tool's arguments (`input`: defaults do not make a field required) or of
 * its result data (`output`). Without the `$schema` key, ready to embed in OpenAPI or an MCP listing.
 */
export function toolJsonSchema(tool: ToolDefinition, which: 'input' | 'output'): JsonSchema {
  const schema = which === 'input' ? tool.inputSchema : tool.outputSchema;
  const json = z.toJSONSchema(schema, { io: which, unrepresentable: 'any' }) as JsonSchema;
  delete json['$schema'];
  return json;
}

import type { ListResourcesResult, ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { TOOL_CATALOG, TOOL_VIEWS, type ToolDefinition, type ToolView, toolViewUri } from '@paper/contracts';
import { serialisedOnce } from '@paper/nest-infra';
import { MCP_APPS_EXTENSION_ID, MCP_APP_MIME_TYPE, type McpUiResourceMeta } from './mcp-apps-protocol';
import { viewDocuments } from './view-document';

/** What each view shows (the resource's title and description in resources/list). */
const VIEW_TEXTS: Record<ToolView, { title: string; description: string }> = {
  'price-chart': {
    title: 'Price chart',
    description: 'Candlesticks with volume, the range statistics, values under the pointer and an interval switch.',
  },
  'trade-ticket': {
    title: 'Trade ticket',
    description:
      "The preview of a trade (size, entry, bust price, PnL scenarios, guardrails) with a countdown to the quote's " +
      'expiry, and the Confirm button that opens the position.',
  },
  account: {
    title: 'Account',
    description:
      'Balances and open positions with live PnL, bust price and distance to liquidation, each with a Close button.',
  },
  'liquidation-map': {
    title: 'Liquidation map',
    description:
      'Open notional by bust price, longs and shorts, 10% either side of the mark, with the largest clusters.',
  },
};

/**
 * The views need nothing from the network: no external scripts, styles, fonts or API calls (every
 * datum comes from tool results relayed by the host), so every allow-list is empty.
 */
export const VIEW_RESOURCE_META: McpUiResourceMeta = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: true,
};

/** The server's MCP Apps extension settings, announced in its capabilities. */
export const UI_EXTENSION = { [MCP_APPS_EXTENSION_ID]: { mimeTypes: [MCP_APP_MIME_TYPE] } };

export interface UiResources {
  /** The resources/list result (the four `ui://paper-perps/...` views), serialised once. */
  readonly listing: ListResourcesResult;
  /** The resources/read result of a view, serialised once; undefined for an unknown URI. */
  read(uri: string): ReadResourceResult | undefined;
}

/** The UI resources of the catalog's views, built once at start-up. */
export function buildUiResources(catalog: readonly ToolDefinition[] = TOOL_CATALOG): UiResources {
  const views = TOOL_VIEWS.filter((view) => catalog.some((tool) => tool.view === view));
  const resources: Resource[] = views.map((view) => ({
    uri: toolViewUri(view),
    name: view,
    title: VIEW_TEXTS[view].title,
    description: VIEW_TEXTS[view].description,
    mimeType: MCP_APP_MIME_TYPE,
    _meta: { ui: VIEW_RESOURCE_META },
  }));
  const documents = viewDocuments(views.map((view) => ({ view, title: VIEW_TEXTS[view].title })));
  const contents = new Map(
    views.map((view) => {
      const uri = toolViewUri(view);
      const text = documents.get(view)!;
      return [
        uri,
        serialisedOnce<ReadResourceResult>({
          contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text, _meta: { ui: VIEW_RESOURCE_META } }],
        }),
      ];
    }),
  );
  return { listing: serialisedOnce({ resources }), read: (uri) => contents.get(uri) };
}

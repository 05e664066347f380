import type { McpUiAppResourceConfig, McpUiAppToolConfig } from '@modelcontextprotocol/ext-apps/server';

/**
 * The MCP Apps (SEP-1865) names the server uses, as `@modelcontextprotocol/ext-apps` defines them (a
 * unit test keeps them equal). They are restated here because the package is an ES module built on the
 * SDK's ES build: loading it at run time would load a second copy of the SDK and zod into the server,
 * about 10 MB of resident memory, for three strings. Its types are used as they are.
 */
export const MCP_APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The MIME type of a UI resource. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The older flat `_meta` key of a tool's UI resource, still read by some hosts. */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/** `_meta.ui` of a UI resource. */
export type McpUiResourceMeta = NonNullable<NonNullable<McpUiAppResourceConfig['_meta']>['ui']>;
/** `_meta.ui` of a tool. */
export type McpUiToolMeta = Extract<McpUiAppToolConfig['_meta'], { ui: unknown }>['ui'];

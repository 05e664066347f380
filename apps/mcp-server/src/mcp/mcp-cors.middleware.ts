import { openCors } from '@paper/nest-infra';

/**
 * The protected-resource metadata is a public document: browser-based MCP clients read it cross-origin
 * (`*`), and preflight requests are answered here. CORS of /mcp itself follows the admitted origins
 * (mcpTransportSecurity, ahead of this).
 */
export const mcpCors = openCors({
  methodsFor: (req) => (req.path.startsWith('/.well-known/') ? 'GET, OPTIONS' : undefined),
  allowHeaders: 'Mcp-Protocol-Version, Accept',
  maxAgeSeconds: 600,
});

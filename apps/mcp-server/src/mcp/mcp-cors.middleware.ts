import type { NextFunction, Request, Response } from 'express';

/**
 * The protected-resource metadata is a public document: browser-based MCP clients read it cross-origin
 * (`*`), and preflight requests are answered here. CORS of /mcp itself follows the admitted origins
 * (mcpTransportSecurity, ahead of this).
 */
export function mcpCors(req: Request, res: Response, next: NextFunction): void {
  if (!req.path.startsWith('/.well-known/')) {
    next();
    return;
  }
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Mcp-Protocol-Version, Accept');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
}

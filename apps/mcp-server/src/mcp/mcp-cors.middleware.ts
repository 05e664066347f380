import type { NextFunction, Request, Response } from 'express';

const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
const EXPOSE_HEADERS = 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, Retry-After, Allow';

function servedCrossOrigin(path: string): boolean {
  return path === '/mcp' || path.startsWith('/.well-known/');
}

/**
 * Browser-based MCP clients (the Inspector's web UI, web chat clients) call /mcp and read the
 * protected-resource metadata cross-origin: both are open (`*`; bearer tokens are not ambient
 * credentials), the challenge headers are exposed, and preflight requests are answered here.
 */
export function mcpCors(req: Request, res: Response, next: NextFunction): void {
  if (!servedCrossOrigin(req.path)) {
    next();
    return;
  }
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
}

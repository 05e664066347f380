import type { Response } from 'express';

/** An RFC 6749 error body (`{error, error_description}`), never cached, for the answers given before oidc-provider. */
export function sendOAuthError(
  res: Response,
  status: number,
  description: string,
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error: 'invalid_request', error_description: description });
}

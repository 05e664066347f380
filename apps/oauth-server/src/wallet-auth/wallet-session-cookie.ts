import type { Request, Response } from 'express';
import { WALLET_SESSION_TTL_MS } from './wallet-auth.service';

export const WALLET_SESSION_COOKIE = 'pp_wallet_session';

/** Reads one cookie from the request's Cookie header. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function setWalletSessionCookie(res: Response, token: string, secure: boolean): void {
  res.cookie(WALLET_SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: WALLET_SESSION_TTL_MS,
  });
}

export function clearWalletSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(WALLET_SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';

/** A loopback HTTP server standing in for a native app's redirect URI. */
export class CallbackServer {
  readonly received: URL[] = [];
  private server?: http.Server;
  private waiters: ((url: URL) => void)[] = [];

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
      this.received.push(url);
      for (const waiter of this.waiters.splice(0)) waiter(url);
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>App</title><p>You can return to the app.</p>');
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  get redirectUri(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  /** The next callback request (or one already received after `since`). */
  next(since = 0, timeoutMs = 30000): Promise<URL> {
    if (this.received.length > since) return Promise.resolve(this.received[since]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no callback received')), timeoutMs);
      this.waiters.push((url) => {
        clearTimeout(timer);
        resolve(url);
      });
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export interface RegisteredClient {
  config: oidc.Configuration;
  clientId: string;
}

/** Discovery (RFC 8414 metadata) and open dynamic registration of a public client, as MCP clients do. */
export async function registerPublicClient(
  baseUrl: string,
  redirectUris: string[],
  name = 'Test Agent',
): Promise<RegisteredClient> {
  const config = await oidc.dynamicClientRegistration(
    new URL(baseUrl),
    {
      client_name: name,
      redirect_uris: redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    oidc.None(),
    { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
  );
  return { config, clientId: config.clientMetadata().client_id };
}

export interface AuthorizationRequest {
  url: URL;
  verifier: string;
  state: string;
  redirectUri: string;
}

export async function authorizationRequest(
  client: RegisteredClient,
  redirectUri: string,
  scope = 'trade:read trade:write offline_access',
  extra: Record<string, string> = {},
): Promise<AuthorizationRequest> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(client.config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { url, verifier, state, redirectUri };
}

/** Exchanges the code from the callback URL (checks state, iss and PKCE). */
export function exchangeCode(
  client: RegisteredClient,
  callback: URL,
  request: AuthorizationRequest,
  verifier = request.verifier,
) {
  return oidc.authorizationCodeGrant(
    client.config,
    callback,
    { pkceCodeVerifier: verifier, expectedState: request.state },
    { redirect_uri: request.redirectUri },
  );
}

/** A raw token request, for negative cases the client library would refuse to send. */
export async function rawTokenRequest(
  baseUrl: string,
  params: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls until the check returns a value (not undefined/null/false), or fails naming what was awaited. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 15000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

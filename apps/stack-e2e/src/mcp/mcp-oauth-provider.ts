import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import type { Hex } from 'viem';
import { ConsentDriver, type Limits } from '../oauth/consent-driver';
import { injectWallet } from '../oauth/injected-wallet';
import type { CallbackServer } from '../oauth/oauth-test-client';

/**
 * An MCP client's OAuth state, kept in memory the way a desktop client keeps it: the SDK drives
 * discovery, dynamic registration, PKCE and the token exchange through it; redirects to the
 * authorization page are recorded for the test to open in a browser.
 */
export class TestOAuthProvider implements OAuthClientProvider {
  readonly redirects: URL[] = [];
  private client?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';

  constructor(
    private readonly redirectUri: string,
    private readonly name = 'MCP E2E Client',
  ) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  /** What a client does when it must start over: forget the tokens (or everything it stored). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
  }

  redirectToAuthorization(url: URL): void {
    this.redirects.push(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  get lastRedirect(): URL {
    const url = this.redirects.at(-1);
    if (!url) throw new Error('the client was never sent to the authorization page');
    return url;
  }
}

export interface BrowserConsent {
  browser: Browser;
  callback: CallbackServer;
  /** The wallet owner's key: the same wallet approves every consent of a test. */
  privateKey: Hex;
}

/**
 * The wallet owner's side: opens the authorization URL the client was sent to, connects the injected
 * wallet, signs in, approves trading within `limits` or, without limits, read-only access, and returns the
 * code the client's redirect URI received.
 */
export async function approveInBrowser(env: BrowserConsent, authorizationUrl: URL, limits?: Limits): Promise<string> {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 900 } });
  try {
    const page = await context.newPage();
    await injectWallet(page, { privateKey: env.privateKey });
    const driver = new ConsentDriver(page);
    const before = env.callback.received.length;
    await driver.open(authorizationUrl).catch((error: Error) => {
      const redirected = env.callback.received.slice(before).find((u) => u.pathname === '/callback');
      throw redirected
        ? new Error(`the authorization server sent the client back at once: ${redirected.search}`)
        : error;
    });
    await driver.connectBrowserWallet();
    await driver.signIn();
    if (limits) await driver.setLimits(limits);
    else if (authorizationUrl.searchParams.get('scope')?.includes('trade:write')) await driver.chooseReadOnly();
    const since = env.callback.received.length;
    await driver.approve();
    const callback = await env.callback.next(since);
    const code = callback.searchParams.get('code');
    if (!code) throw new Error(`the authorization ended without a code: ${callback.search}`);
    if (callback.searchParams.get('state') !== authorizationUrl.searchParams.get('state'))
      throw new Error('state mismatch');
    return code;
  } finally {
    await context.close();
  }
}

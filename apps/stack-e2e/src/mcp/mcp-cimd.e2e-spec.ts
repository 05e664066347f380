import {
  Client as ModernClient,
  type OAuthClientProvider,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client as Db } from 'pg';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type Limits, launchChromium } from '../oauth/consent-driver';
import { CallbackServer, eventually } from '../oauth/oauth-test-client';
import { approveInBrowser, type BrowserConsent } from './mcp-oauth-provider';
import { fund } from './paper-funds';

const LIMITS: Limits = {
  maxMarginPerTradeUsd: '50',
  maxLeverage: '500',
  maxDailyNotionalUsd: '100000',
  maxOpenPositions: '3',
  markets: ['BTC'],
  confirmations: true,
  expiresInDays: '7',
};
const TRADE = { market: 'BTC', side: 'long', marginUsd: 25, leverage: 500 };

/**
 * A client's published client ID metadata document, served over HTTPS on this machine (a certificate
 * made for `localhost`, which the stack's processes trust), counting how often it is fetched.
 */
class MetadataDocumentHost {
  fetches = 0;
  url = '';
  readonly certFile: string;
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cimd-'));
  private server?: https.Server;

  constructor(private readonly redirectUri: string) {
    this.certFile = path.join(this.dir, 'cert.pem');
  }

  async start(): Promise<void> {
    const keyFile = path.join(this.dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        keyFile,
        '-out',
        this.certFile,
      ],
      { stdio: 'ignore' },
    );
    this.server = https.createServer(
      { key: fs.readFileSync(keyFile), cert: fs.readFileSync(this.certFile) },
      (req, res) => {
        if (req.url !== '/oauth/client.json') return void res.writeHead(404).end();
        this.fetches += 1;
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' });
        res.end(
          JSON.stringify({
            client_id: this.url,
            client_name: 'CIMD Agent',
            client_uri: 'https://localhost/',
            redirect_uris: [this.redirectUri],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          }),
        );
      },
    );
    await new Promise<void>((resolve) => this.server!.listen(0, 'localhost', resolve));
    this.url = `https://localhost:${(this.server.address() as AddressInfo).port}/oauth/client.json`;
  }

  get host(): string {
    return new URL(this.url).host;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The v2 SDK's OAuth state for a client that presents a client ID metadata document instead of registering. */
class CimdProvider implements OAuthClientProvider {
  readonly redirects: URL[] = [];
  private saved?: Parameters<OAuthClientProvider['saveTokens']>[0];
  private client?: Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];
  private verifier = '';

  constructor(
    readonly clientMetadataUrl: string,
    private readonly redirectUri: string,
  ) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata() {
    return {
      client_name: 'CIMD Agent',
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(info: NonNullable<typeof this.client>): void {
    this.client = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: NonNullable<typeof this.saved>): void {
    this.saved = tokens;
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
}

describe('OAuth with a client ID metadata document: the v2 SDK client on MCP 2026-07-28 signs in, trades and reads a view', () => {
  let stack: TestStack;
  let browser: Browser;
  let db: Db;
  const callback = new CallbackServer();
  let documents: MetadataDocumentHost;
  const privateKey = generatePrivateKey();
  const wallet = privateKeyToAccount(privateKey).address.toLowerCase();

  beforeAll(async () => {
    await callback.start();
    documents = new MetadataDocumentHost(callback.redirectUri);
    await documents.start();
    stack = await startTestStack({
      apps: ['venue-sim', 'trading-executor', 'oauth-server', 'tools-gateway', 'mcp-server'],
      env: { NODE_EXTRA_CA_CERTS: documents.certFile, OAUTH_CIMD_PRIVATE_HOSTS: documents.host },
    });
    browser = await launchChromium();
    db = new Db({ connectionString: stack.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await Promise.allSettled([db?.end(), callback.stop(), browser?.close(), stack?.stop(), documents?.stop()]);
  });

  const clientRecords = async () =>
    Number((await db.query(`SELECT count(*) AS n FROM oauth.oidc_models WHERE kind = 'Client'`)).rows[0].n);

  /** Connects, meets the sign-in challenge of get_account, approves in the browser, and finishes the sign-in. */
  async function signIn(provider: CimdProvider, limits?: Limits): Promise<ModernClient> {
    const transport = new ModernTransport(new URL(`${stack.baseUrl}/mcp`), { authProvider: provider });
    const client = new ModernClient(
      { name: 'cimd-agent', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(transport);
    await expect(client.callTool({ name: 'get_account', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.redirects.at(-1)!;
    expect(url.searchParams.get('client_id')).toBe(documents.url);
    const consent: BrowserConsent = { browser, callback, privateKey };
    const code = await approveInBrowser(consent, url, limits);
    // The v2 client checks the callback's `iss` (RFC 9207) before it redeems the code.
    const redirect = callback.received.find((u) => u.searchParams.get('code') === code)!;
    await transport.finishAuth(redirect.searchParams);
    return client;
  }

  it('advertises client ID metadata documents and keeps dynamic registration for older clients', async () => {
    const metadata = (await (await fetch(`${stack.baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).toMatchObject({
      client_id_metadata_document_supported: true,
      registration_endpoint: `${stack.baseUrl}/register`,
    });
  });

  it('signs in without registering, trades with the quote, reads the trade ticket view; a second sign-in adds no client', async () => {
    const before = await clientRecords();
    const provider = new CimdProvider(documents.url, callback.redirectUri);
    const client = await signIn(provider, LIMITS);
    try {
      expect(provider.clientInformation()?.client_id ?? documents.url).toBe(documents.url);
      const account = await client.callTool({ name: 'get_account', arguments: {} });
      expect(account.structuredContent).toMatchObject({ wallet });
      await fund(stack, wallet);
      await eventually(async () => {
        const permissions = await client.callTool({ name: 'get_trading_permissions', arguments: {} });
        return (permissions.structuredContent as { canTrade?: boolean } | undefined)?.canTrade === true;
      }, 'the trading session');
      const preview = await client.callTool({ name: 'preview_trade', arguments: TRADE });
      expect(preview.isError).toBeFalsy();
      const quote = preview.structuredContent as { quoteId: string };
      const opened = await client.callTool({ name: 'open_position', arguments: { ...TRADE, quoteId: quote.quoteId } });
      expect(opened.structuredContent).toMatchObject({ status: 'filled', position: { marginUsd: 25, leverage: 500 } });
      const tools = (await client.listTools()).tools;
      const ticket = tools.find((t) => t.name === 'preview_trade')!._meta?.['ui'] as { resourceUri: string };
      const view = await client.readResource({ uri: ticket.resourceUri });
      expect(view.contents[0]).toMatchObject({ uri: ticket.resourceUri, mimeType: 'text/html;profile=mcp-app' });
    } finally {
      await client.close();
    }
    // The same client connects again (a new connection, read-only this time): still no client record.
    const again = await signIn(new CimdProvider(documents.url, callback.redirectUri));
    await again.close();
    expect(await clientRecords()).toBe(before);
    // The document was fetched once and then used from the cache its Cache-Control allowed.
    expect(documents.fetches).toBe(1);
  });

  it('shows the host of the document on the consent page and refuses a redirect URI the document does not list', async () => {
    const authorize = new URL(`${stack.baseUrl}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: documents.url,
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
      scope: 'trade:read',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const refused = await fetch(authorize, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('never registered');

    authorize.searchParams.set('redirect_uri', callback.redirectUri);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(authorize.toString());
      await expect(page.locator('.client-host').textContent()).resolves.toContain(
        `This app is published by ${documents.host}`,
      );
    } finally {
      await context.close();
    }
  });
});

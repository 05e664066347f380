import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ConsentDriver, DEFAULT_TEST_LIMITS, type Limits, screenshot } from './consent-driver';
import { type InjectedWallet, type InjectOptions, injectWallet } from './injected-wallet';
import {
  type AuthorizationRequest,
  authorizationRequest,
  type CallbackServer,
  eventually,
  type RegisteredClient,
  registerPublicClient,
} from './oauth-test-client';

export interface FlowEnv {
  baseUrl: string;
  browser: Browser;
  callback: CallbackServer;
  screenshots: boolean;
}

export interface ConnectOptions {
  scope?: string;
  limits?: Limits;
  /** Save screenshots of the states passed (all of them with `true`) when SCREENSHOTS=1. */
  shots?: boolean | readonly string[];
  context?: BrowserContext;
  wallet?: InjectOptions;
  /** No browser wallet in the page: the owner uses the demo wallet generated in the browser. */
  demoWallet?: boolean;
  clientName?: string;
  /** A resource indicator (RFC 8707) for the authorization request; the default resource when absent. */
  resource?: string;
  /** `open`: stop once the page is open, before connecting a wallet. */
  stopAt?: 'open';
  /** Send the authorization request as a form POST (OpenID Connect) instead of a GET. */
  post?: boolean;
}

export interface StartedConsent {
  client: RegisteredClient;
  request: AuthorizationRequest;
  context: BrowserContext;
  page: Page;
  /** The injected browser wallet (absent with the demo wallet). */
  wallet?: InjectedWallet;
  driver: ConsentDriver;
}

/**
 * Registers a client the way MCP clients do (redirect URI on one loopback port, used on another) and
 * walks the consent page up to the review step.
 */
export async function startConsent(env: FlowEnv, options: ConnectOptions = {}): Promise<StartedConsent> {
  const client = await registerPublicClient(
    env.baseUrl,
    ['http://127.0.0.1:9/callback'],
    options.clientName ?? 'Test Agent',
  );
  const request = await authorizationRequest(
    client,
    env.callback.redirectUri,
    options.scope,
    options.resource ? { resource: options.resource } : {},
  );
  const context = options.context ?? (await env.browser.newContext({ viewport: { width: 900, height: 900 } }));
  const page = await context.newPage();
  const wallet = options.demoWallet ? undefined : await injectWallet(page, options.wallet);
  const driver = new ConsentDriver(page);
  const shot = (name: string, selector?: string) => screenshot(wanted(env, options, name), page, name, selector);
  if (options.post) await driver.openByPost(request.url);
  else await driver.open(request.url);
  if (options.stopAt === 'open') return { client, request, context, page, wallet, driver };
  await shot('consent-connect');
  if (options.demoWallet) await driver.connectDemoWallet();
  else await driver.connectBrowserWallet();
  await shot(options.demoWallet ? 'consent-demo-wallet' : 'consent-sign-in');
  await driver.signIn();
  await shot('consent-review');
  return { client, request, context, page, wallet, driver };
}

/** Sets the limits, approves, and returns the callback the client received (state, code, iss). */
export async function finishConsent(env: FlowEnv, started: StartedConsent, options: ConnectOptions = {}): Promise<URL> {
  const { page, driver } = started;
  if ((options.scope ?? 'trade:write').includes('trade:write')) {
    await driver.setLimits(options.limits ?? DEFAULT_TEST_LIMITS);
    await screenshot(wanted(env, options, 'consent-guardrails'), page, 'consent-guardrails', '#step-review');
  }
  const since = env.callback.received.length;
  const held = await holdReturnToApp(page);
  await driver.approve();
  await held.finalState('Connected', wanted(env, options, 'consent-done') ? 'consent-done' : undefined);
  await held.release();
  return env.callback.next(since);
}

/** Denies on the page (keyboard), checks the page's final state, and returns the callback the client received. */
export async function denyConsent(
  env: FlowEnv,
  started: StartedConsent,
  options: Pick<ConnectOptions, 'shots'> = {},
): Promise<URL> {
  const since = env.callback.received.length;
  const held = await holdReturnToApp(started.page);
  await started.driver.deny();
  await held.finalState('Request denied', wanted(env, options, 'consent-denied') ? 'consent-denied' : undefined);
  await held.release();
  return env.callback.next(since);
}

function wanted(env: FlowEnv, options: Pick<ConnectOptions, 'shots'>, name: string): boolean {
  return env.screenshots && (options.shots === true || (Array.isArray(options.shots) && options.shots.includes(name)));
}

/**
 * Holds the page's own return navigation to the authorization endpoint (answered 204, so the page stays)
 * to check its final state, then lets the browser make that same request and follow the redirect to the app.
 */
async function holdReturnToApp(page: Page) {
  const isResume = (url: URL) => url.pathname.startsWith('/authorize/');
  let resumeUrl: string | undefined;
  await page.route(isResume, async (route) => {
    resumeUrl = route.request().url();
    await route.fulfill({ status: 204 });
  });
  return {
    async finalState(heading: string, shot?: string): Promise<void> {
      const error = page.locator('#error');
      const done = page.getByRole('heading', { name: heading, exact: true });
      const first = await Promise.race([
        done.waitFor({ timeout: 45000 }).then(() => 'done' as const),
        error.waitFor({ state: 'visible', timeout: 45000 }).then(() => 'error' as const),
      ]);
      if (first === 'error') throw new Error(`consent page shows an error: ${await error.textContent()}`);
      await screenshot(shot !== undefined, page, shot ?? '');
    },
    async release(): Promise<void> {
      const resume = await eventually(async () => resumeUrl, 'the page to return to the authorization endpoint');
      await page.unroute(isResume);
      await page.goto(resume);
    },
  };
}

export async function connectWithConsent(
  env: FlowEnv,
  options: ConnectOptions = {},
): Promise<StartedConsent & { callbackUrl: URL }> {
  const started = await startConsent(env, options);
  const callbackUrl = await finishConsent(env, started, options);
  return { ...started, callbackUrl };
}

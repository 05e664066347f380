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
  shots?: boolean;
  context?: BrowserContext;
  wallet?: InjectOptions;
  /** No browser wallet in the page: the owner uses the demo wallet generated in the browser. */
  demoWallet?: boolean;
  clientName?: string;
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
  const client = await registerPublicClient(env.baseUrl, ['http://127.0.0.1:9/callback'], options.clientName ?? 'Test Agent');
  const request = await authorizationRequest(client, env.callback.redirectUri, options.scope);
  const context = options.context ?? (await env.browser.newContext({ viewport: { width: 900, height: 900 } }));
  const page = await context.newPage();
  const wallet = options.demoWallet ? undefined : await injectWallet(page, options.wallet);
  const driver = new ConsentDriver(page);
  const shots = env.screenshots && options.shots === true;
  await driver.open(request.url);
  await screenshot(shots, page, 'consent-connect');
  if (options.demoWallet) await driver.connectDemoWallet();
  else await driver.connectBrowserWallet();
  await driver.signIn();
  await screenshot(shots, page, 'consent-review');
  return { client, request, context, page, wallet, driver };
}

/** Sets the limits, approves, and returns the callback the client received (state, code, iss). */
export async function finishConsent(env: FlowEnv, started: StartedConsent, options: ConnectOptions = {}): Promise<URL> {
  const { page, driver } = started;
  const shots = env.screenshots && options.shots === true;
  if ((options.scope ?? 'trade:write').includes('trade:write')) {
    await driver.setLimits(options.limits ?? DEFAULT_TEST_LIMITS);
    await screenshot(shots, page, 'consent-guardrails', '#step-review');
  }
  const since = env.callback.received.length;
  // Hold the page's own return navigation (answered 204, so the page stays) to check its final state,
  // then let the browser make that same request and follow the redirect to the app.
  const isResume = (url: URL) => url.pathname.startsWith('/authorize/');
  let resumeUrl: string | undefined;
  await page.route(isResume, async (route) => {
    resumeUrl = route.request().url();
    await route.fulfill({ status: 204 });
  });
  await driver.approve();
  const error = page.locator('#error');
  const done = page.getByRole('heading', { name: 'Connected', exact: true });
  const first = await Promise.race([
    done.waitFor({ timeout: 45000 }).then(() => 'done' as const),
    error.waitFor({ state: 'visible', timeout: 45000 }).then(() => 'error' as const),
  ]);
  if (first === 'error') throw new Error(`consent page shows an error: ${await error.textContent()}`);
  await screenshot(shots, page, 'consent-done');
  const resume = await eventually(async () => resumeUrl, 'the page to return to the authorization endpoint');
  await page.unroute(isResume);
  await page.goto(resume);
  return env.callback.next(since);
}

export async function connectWithConsent(env: FlowEnv, options: ConnectOptions = {}): Promise<StartedConsent & { callbackUrl: URL }> {
  const started = await startConsent(env, options);
  const callbackUrl = await finishConsent(env, started, options);
  return { ...started, callbackUrl };
}

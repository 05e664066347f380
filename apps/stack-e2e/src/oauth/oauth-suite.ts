import { startTestStack, type TestStack } from '@paper/dev-stack';
import { Client } from 'pg';
import type { Browser } from 'playwright-core';
import type { FlowEnv } from './connect-flow';
import { launchChromium } from './consent-driver';
import { CallbackServer } from './oauth-test-client';

/** What an OAuth suite runs against: the stack, Chromium, the client's redirect receiver and the database. */
export interface OAuthSuite {
  stack: TestStack;
  browser: Browser;
  db: Client;
  callback: CallbackServer;
  env: FlowEnv;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Starts venue-sim, trading-executor and oauth-server with Chromium before the suite; stops them after. */
export function useOAuthSuite(options: { screenshots?: boolean } = {}): OAuthSuite {
  const suite = { callback: new CallbackServer() } as OAuthSuite;
  suite.query = async <T>(sql: string, params: unknown[] = []) => (await suite.db.query(sql, params)).rows as T[];

  beforeAll(async () => {
    suite.stack = await startTestStack({ apps: ['venue-sim', 'trading-executor', 'oauth-server'] });
    suite.browser = await launchChromium();
    await suite.callback.start();
    suite.db = new Client({ connectionString: suite.stack.database.url });
    await suite.db.connect();
    suite.env = {
      baseUrl: suite.stack.baseUrl,
      browser: suite.browser,
      callback: suite.callback,
      screenshots: options.screenshots ?? false,
    };
  });

  // Every part is released even when another failed to start or to stop.
  afterAll(async () => {
    await Promise.allSettled([suite.db?.end(), suite.callback.stop(), suite.browser?.close(), suite.stack?.stop()]);
  });

  return suite;
}

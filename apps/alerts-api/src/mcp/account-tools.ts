import type { McpServer } from '@modelcontextprotocol/server';
import type { AccountToolServices, Authed } from './account-tool-kit';
import { registerAlertTools } from './alert-tools';
import { registerChannelTools } from './channel-tools';
import { fail, run } from './tool-result';
import { registerWatchTools } from './watch-tools';

/**
 * Tools that read and manage one account: everything the REST API offers under a bearer token
 * (watches, channels and their test messages, Telegram link codes, protocol rules, alerts, dead letters
 * and their retry, the account itself). Creating an account stays REST-only (POST /api/accounts
 * returns the token an MCP client then connects with). The tools are always listed; without an
 * account token they answer a tool error saying a token is needed. `accountId` reads the account of
 * the request the server serves now (servers are pooled between requests).
 */
export function registerAccountTools(
  server: McpServer,
  accountId: () => string | undefined,
  services: AccountToolServices,
): void {
  const authed: Authed = (body) => {
    const account = accountId();
    return account
      ? run(() => body(account))
      : Promise.resolve(
          fail(
            'unauthorized',
            'This tool needs an account token: connect to /mcp with Authorization: Bearer <ACCOUNT_TOKEN> (from POST ' +
              '/api/accounts).',
          ),
        );
  };
  registerWatchTools(server, authed, services);
  registerChannelTools(server, authed, services);
  registerAlertTools(server, authed, services);
}

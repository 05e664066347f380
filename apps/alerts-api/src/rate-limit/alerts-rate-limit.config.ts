import { env } from '@paper/nest-infra';

/** The per-caller limits of alerts-api (docs/alerts-api.md, "Rate limits", explains the defaults). */
export const alertsRateLimitEnvShape = {
  ALERTS_RATE_ACCOUNTS_PER_HOUR: env
    .positiveInt(20)
    .describe('Accounts (POST /api/accounts) created per client address per hour, on average (a token bucket).'),
  ALERTS_RATE_ACCOUNTS_BURST: env
    .positiveInt(10)
    .describe('Accounts one client address may create at once before the hourly rate applies.'),
  ALERTS_RATE_ACCOUNT_PER_SECOND: env
    .positiveInt(20)
    .describe('Requests per second per account (every request with an account token, REST and MCP together).'),
  ALERTS_RATE_ACCOUNT_BURST: env.positiveInt(40).describe('Burst of requests per account.'),
  ALERTS_RATE_PUBLIC_PER_SECOND: env
    .positiveInt(20)
    .describe(
      'Requests per second per client address without an account token (status, OpenAPI, the exchange proxy ' +
        '/api/upstream/*, /mcp without a token), and with a token that was refused.',
    ),
  ALERTS_RATE_PUBLIC_BURST: env.positiveInt(40).describe('Burst of requests per client address without a token.'),
};

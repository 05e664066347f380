import type { McpServer } from '@modelcontextprotocol/server';
import { PROTOCOL_MARKETS, PROTOCOL_RULE_RANGES } from '@paper/contracts';
import { z } from 'zod';
import { AlertsQueryDto, DeadQueryDto, ProtocolRulesDto, validateDto } from '@paper/alerts-accounts';
import {
  type AccountToolServices,
  type Authed,
  DESTRUCTIVE,
  READ_ONLY,
  record,
  resourceId,
  WRITE,
} from './account-tool-kit';
import { looseObject, ok } from './tool-result';

const { min, max } = PROTOCOL_RULE_RANGES.thresholdPerHour;
const PROTOCOL_RULES_HELP =
  `mintRate {enabled, thresholdPerHour ${min}..${max}}: alert when more reward tokens were minted over the last hour; ` +
  `marketStatus {enabled, markets: ${JSON.stringify(PROTOCOL_MARKETS)}}: alert when a market changes status. ` +
  'Replaces the rules; omitted fields take their defaults. Unknown keys are refused.';

/**
 * Alerts, dead letters, protocol rules and the account: the tools behind GET /api/alerts,
 * GET /api/deliveries/dead, POST /api/deliveries/{id}/retry, PUT /api/protocol-rules, GET and DELETE /api/me.
 */
export function registerAlertTools(
  server: McpServer,
  authed: Authed,
  s: Pick<AccountToolServices, 'accounts' | 'alerts' | 'deliveries' | 'protocolRules'>,
): void {
  server.registerTool(
    'list_alerts',
    {
      title: 'List alerts',
      description:
        'Alert history, newest first, with per-channel delivery status; page with limit (1..100) and before (needs ' +
        'an account token).',
      inputSchema: { limit: z.number().int().optional(), before: z.string().optional() },
      outputSchema: looseObject({ alerts: z.array(record()), nextBefore: z.string().nullable() }),
      annotations: READ_ONLY,
    },
    (args) =>
      authed(async (account) => {
        const query = await validateDto(AlertsQueryDto, args);
        return ok({ ...(await s.alerts.page(account, query.limit, query.before)) });
      }),
  );

  server.registerTool(
    'list_dead_deliveries',
    {
      title: 'List dead letters',
      description:
        'Deliveries that gave up (dead letters), newest first, with the last error; limit 1..100 (needs an account ' +
        'token).',
      inputSchema: { limit: z.number().int().optional() },
      outputSchema: looseObject({ deliveries: z.array(record()) }),
      annotations: READ_ONLY,
    },
    (args) =>
      authed(async (account) => {
        const query = await validateDto(DeadQueryDto, args);
        return ok({ deliveries: await s.deliveries.dead(account, query.limit) });
      }),
  );

  server.registerTool(
    'retry_delivery',
    {
      title: 'Retry dead letter',
      description: 'Queue a dead-lettered delivery again: same event id, attempts start over (needs an account token).',
      inputSchema: { id: resourceId('Delivery') },
      outputSchema: looseObject({ delivery: record() }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ id }) => authed(async (account) => ok({ delivery: await s.deliveries.retry(account, id) })),
  );

  server.registerTool(
    'get_protocol_rules',
    {
      title: 'Protocol rules',
      description: 'Your protocol rules (mint rate, market status); defaults until set (needs an account token).',
      outputSchema: looseObject({ protocolRules: record() }),
      annotations: READ_ONLY,
    },
    () => authed(async (account) => ok({ protocolRules: { ...(await s.protocolRules.get(account)) } })),
  );

  server.registerTool(
    'set_protocol_rules',
    {
      title: 'Set protocol rules',
      description: `${PROTOCOL_RULES_HELP} (needs an account token)`,
      inputSchema: { mintRate: record().optional(), marketStatus: record().optional() },
      outputSchema: looseObject({ protocolRules: record() }),
      annotations: WRITE,
    },
    (args) =>
      authed(async (account) =>
        ok({ protocolRules: { ...(await s.protocolRules.put(account, await validateDto(ProtocolRulesDto, args))) } }),
      ),
  );

  server.registerTool(
    'get_my_account',
    {
      title: 'Account',
      description: 'Your alerts account: id, limits, watches, channels and protocol rules (needs an account token).',
      outputSchema: looseObject({ account: record(), limits: record() }),
      annotations: READ_ONLY,
    },
    () => authed(async (account) => ok({ ...(await s.accounts.me(account)) })),
  );

  server.registerTool(
    'delete_my_account',
    {
      title: 'Delete account',
      description:
        'Delete your alerts account and everything under it (watches, channels, rules, alerts, deliveries). The ' +
        'token stops working. ' +
        'Cannot be undone; pass confirm: true (needs an account token).',
      inputSchema: { confirm: z.literal(true).describe('Must be true') },
      outputSchema: looseObject({ deleted: z.string() }),
      annotations: DESTRUCTIVE,
    },
    () =>
      authed(async (account) => {
        await s.accounts.remove(account);
        return ok({ deleted: account });
      }),
  );
}

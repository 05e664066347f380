import type { McpServer } from '@modelcontextprotocol/server';
import { WALLET_RULE_RANGES, WATCH_ROLES } from '@paper/contracts';
import { z } from 'zod';
import { CreateWatchDto, UpdateWatchDto, validateDto } from '@paper/alerts-accounts';
import {
  type AccountToolServices,
  type Authed,
  listOf,
  READ_ONLY,
  record,
  registerRemoveTool,
  resourceId,
  WRITE,
} from './account-tool-kit';
import { looseObject, ok } from './tool-result';

const range = (field: keyof typeof WALLET_RULE_RANGES) =>
  `${field} ${WALLET_RULE_RANGES[field].min}..${WALLET_RULE_RANGES[field].max}`;
const RULES_HELP =
  `Wallet rules, partial: liquidation {enabled, ${range('belowPct')}}, opened, closed, liquidated (booleans), ` +
  `balance {enabled, ${range('changeUsd')}}, sessionKey {enabled, ${range('withinDays')}}, ` +
  `rewards {enabled, ${range('aboveUsdc')}}. Unknown keys are refused.`;
const rules = record().describe(RULES_HELP);

/** Watches: the tools behind GET /api/me (watches), POST /api/watches, PATCH and DELETE /api/watches/{id}. */
export function registerWatchTools(server: McpServer, authed: Authed, s: Pick<AccountToolServices, 'watches'>): void {
  server.registerTool(
    'list_watches',
    {
      title: 'List watches',
      description: 'Watched wallets of your account with their rules (needs an account token).',
      outputSchema: listOf('watches'),
      annotations: READ_ONLY,
    },
    () => authed(async (account) => ok({ watches: await s.watches.list(account) })),
  );

  server.registerTool(
    'add_watch',
    {
      title: 'Add watch',
      description:
        'Watch a wallet. Idempotent per address and role: the same watch comes back, with label and rules applied ' +
        '(needs an account token).',
      inputSchema: {
        address: z.string().describe('Wallet address'),
        role: z.enum(WATCH_ROLES).optional(),
        label: z.string().optional(),
        rules: rules.optional(),
      },
      outputSchema: looseObject({ watch: record(), created: z.boolean() }),
      annotations: WRITE,
    },
    (args) =>
      authed(async (account) => {
        const { watch, created } = await s.watches.create(account, await validateDto(CreateWatchDto, args));
        return ok({ watch, created });
      }),
  );

  server.registerTool(
    'update_watch',
    {
      title: 'Update watch',
      description: 'Change the label or rules of a watch; rules may be partial (needs an account token).',
      inputSchema: { id: resourceId('Watch'), label: z.string().nullable().optional(), rules: rules.optional() },
      outputSchema: looseObject({ watch: record() }),
      annotations: WRITE,
    },
    ({ id, ...rest }) =>
      authed(async (account) =>
        ok({ watch: await s.watches.update(account, id, await validateDto(UpdateWatchDto, rest)) }),
      ),
  );

  registerRemoveTool(
    server,
    authed,
    {
      name: 'remove_watch',
      title: 'Remove watch',
      description: 'Stop watching a wallet (needs an account token).',
      what: 'Watch',
    },
    (account, id) => s.watches.remove(account, id),
  );
}

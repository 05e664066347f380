import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WATCH_ROLES } from '@paper/contracts';
import { z } from 'zod';
import { AlertsQueryDto } from '../alerts/alert.dto';
import type { AlertsService } from '../alerts/alerts.service';
import { validateDto } from '../app/validation';
import { UpdateChannelDto } from '../channels/channel.dto';
import type { ChannelsService } from '../channels/channels.service';
import { CreateWatchDto, UpdateWatchDto } from '../watches/watch.dto';
import type { WatchesService } from '../watches/watches.service';
import { fail, looseObject, ok, run } from './tool-result';

export interface AccountToolServices {
  watches: WatchesService;
  channels: ChannelsService;
  alerts: AlertsService;
}

const RULES_HELP =
  'Wallet rules, partial: liquidation {enabled, belowPct 0.001..50}, opened, closed, liquidated (booleans), balance {enabled, changeUsd 1..1e9}, ' +
  'sessionKey {enabled, withinDays 1..30}, rewards {enabled, aboveUsdc 0.01..1e9}. Unknown keys are refused.';
const id = z.uuid().describe('Resource id (UUID)');
const rules = z.record(z.string(), z.unknown()).describe(RULES_HELP);
const anyList = (key: string) => looseObject({ [key]: z.array(z.record(z.string(), z.unknown())) });

/** What account tools answer without a token. */
function needsToken(): CallToolResult {
  return fail('unauthorized', 'This tool needs an account token: connect to /mcp with Authorization: Bearer <ACCOUNT_TOKEN> (from POST /api/accounts).');
}

/**
 * Tools that read and manage one account's watches, channels and alerts. They are always listed; without
 * an account token they answer a tool error saying a token is needed.
 */
export function registerAccountTools(server: McpServer, accountId: string | undefined, s: AccountToolServices): void {
  const authed = (body: (account: string) => Promise<CallToolResult>) => (accountId ? run(() => body(accountId)) : Promise.resolve(needsToken()));
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  server.registerTool(
    'list_watches',
    { title: 'List watches', description: 'Watched wallets of your account with their rules (needs an account token).', outputSchema: anyList('watches'), annotations: readOnly },
    () => authed(async (account) => ok({ watches: await s.watches.list(account) })),
  );

  server.registerTool(
    'add_watch',
    {
      title: 'Add watch',
      description: 'Watch a wallet. Idempotent per address and role: the same watch comes back, with label and rules applied (needs an account token).',
      inputSchema: { address: z.string().describe('Wallet address'), role: z.enum(WATCH_ROLES).optional(), label: z.string().optional(), rules: rules.optional() },
      outputSchema: looseObject({ watch: z.record(z.string(), z.unknown()), created: z.boolean() }),
      annotations: write,
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
      inputSchema: { id, label: z.string().nullable().optional(), rules: rules.optional() },
      outputSchema: looseObject({ watch: z.record(z.string(), z.unknown()) }),
      annotations: write,
    },
    ({ id: watchId, ...rest }) => authed(async (account) => ok({ watch: await s.watches.update(account, watchId, await validateDto(UpdateWatchDto, rest)) })),
  );

  server.registerTool(
    'remove_watch',
    {
      title: 'Remove watch',
      description: 'Stop watching a wallet (needs an account token).',
      inputSchema: { id },
      outputSchema: looseObject({ removed: z.string() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ id: watchId }) =>
      authed(async (account) => {
        await s.watches.remove(account, watchId);
        return ok({ removed: watchId });
      }),
  );

  server.registerTool(
    'list_channels',
    { title: 'List channels', description: 'Delivery channels of your account (targets masked) (needs an account token).', outputSchema: anyList('channels'), annotations: readOnly },
    () => authed(async (account) => ok({ channels: await s.channels.list(account) })),
  );

  server.registerTool(
    'set_channel_status',
    {
      title: 'Pause or resume channel',
      description: 'Set a channel to paused or active (needs an account token).',
      inputSchema: { id, status: z.enum(['active', 'paused']) },
      outputSchema: looseObject({ channel: z.record(z.string(), z.unknown()) }),
      annotations: write,
    },
    ({ id: channelId, status }) =>
      authed(async (account) => {
        const dto = await validateDto(UpdateChannelDto, { status });
        return ok({ channel: await s.channels.setStatus(account, channelId, dto.status) });
      }),
  );

  server.registerTool(
    'list_alerts',
    {
      title: 'List alerts',
      description: 'Alert history, newest first, with per-channel delivery status; page with limit (1..100) and before (needs an account token).',
      inputSchema: { limit: z.number().int().optional(), before: z.string().optional() },
      outputSchema: looseObject({ alerts: z.array(z.record(z.string(), z.unknown())), nextBefore: z.string().nullable() }),
      annotations: readOnly,
    },
    (args) =>
      authed(async (account) => {
        const query = await validateDto(AlertsQueryDto, args);
        return ok({ ...(await s.alerts.page(account, query.limit, query.before)) });
      }),
  );
}

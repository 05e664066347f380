import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CREATABLE_KINDS, CreateChannelDto, UpdateChannelDto, validateDto } from '@paper/alerts-accounts';
import {
  type AccountToolServices,
  type Authed,
  CREATE,
  listOf,
  READ_ONLY,
  record,
  registerRemoveTool,
  resourceId,
  SENDS,
  WRITE,
} from './account-tool-kit';
import { looseObject, ok } from './tool-result';

/**
 * Channels: the tools behind POST /api/channels, PATCH and DELETE /api/channels/{id},
 * POST /api/channels/{id}/test and POST /api/telegram/link.
 */
export function registerChannelTools(
  server: McpServer,
  authed: Authed,
  s: Pick<AccountToolServices, 'channels' | 'channelTests' | 'telegramLinks'>,
): void {
  server.registerTool(
    'list_channels',
    {
      title: 'List channels',
      description: 'Delivery channels of your account (targets masked) (needs an account token).',
      outputSchema: listOf('channels'),
      annotations: READ_ONLY,
    },
    () => authed(async (account) => ok({ channels: await s.channels.list(account) })),
  );

  server.registerTool(
    'add_channel',
    {
      title: 'Add channel',
      description:
        'Add a delivery channel: kind discord (target: a Discord webhook URL) or webhook (target: a public http(s) ' +
        "URL). A webhook channel's " +
        'signingSecret is returned only in this result: keep it to verify deliveries. Telegram chats are linked with ' +
        'create_telegram_link (needs an account token).',
      inputSchema: {
        kind: z.enum(CREATABLE_KINDS),
        target: z.string().describe('Discord webhook URL or public webhook URL'),
        label: z.string().optional(),
      },
      outputSchema: looseObject({ channel: record() }),
      annotations: CREATE,
    },
    (args) =>
      authed(async (account) =>
        ok({ channel: await s.channels.create(account, await validateDto(CreateChannelDto, args)) }),
      ),
  );

  server.registerTool(
    'set_channel_status',
    {
      title: 'Pause or resume channel',
      description:
        'Set a channel to paused or active; active also re-enables a channel that delivery disabled (needs an ' +
        'account token).',
      inputSchema: { id: resourceId('Channel'), status: z.enum(['active', 'paused']) },
      outputSchema: looseObject({ channel: record() }),
      annotations: WRITE,
    },
    ({ id, status }) =>
      authed(async (account) => {
        const dto = await validateDto(UpdateChannelDto, { status });
        return ok({ channel: await s.channels.setStatus(account, id, dto.status) });
      }),
  );

  registerRemoveTool(
    server,
    authed,
    {
      name: 'remove_channel',
      title: 'Remove channel',
      description: 'Remove a channel; its pending deliveries go with it (needs an account token).',
      what: 'Channel',
    },
    (account, id) => s.channels.remove(account, id),
  );

  server.registerTool(
    'test_channel',
    {
      title: 'Send test message',
      description:
        'Send a real test message to an active channel (at most 5 per minute per channel; paused and disabled ' +
        'channels are refused). ' +
        'The result says whether the receiver accepted it (needs an account token).',
      inputSchema: { id: resourceId('Channel') },
      outputSchema: looseObject({ delivered: z.boolean(), outcome: z.string(), eventId: z.string() }),
      annotations: SENDS,
    },
    ({ id }) => authed(async (account) => ok({ ...(await s.channelTests.test(account, id)) })),
  );

  server.registerTool(
    'create_telegram_link',
    {
      title: 'Link a Telegram chat',
      description:
        'Mint a single-use code, valid 15 minutes, and a deep link: sending /start <code> to the bot links that chat ' +
        'as a channel (needs an account token).',
      outputSchema: looseObject({ code: z.string(), deepLink: z.string(), expiresAt: z.string() }),
      annotations: CREATE,
    },
    () => authed(async (account) => ok({ ...(await s.telegramLinks.mint(account)) })),
  );
}

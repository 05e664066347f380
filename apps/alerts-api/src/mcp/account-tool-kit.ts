import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type {
  AccountsService,
  AlertsService,
  ChannelsService,
  ProtocolRulesService,
  WatchesService,
} from '@paper/alerts-accounts';
import type { ChannelTestService } from '../channels/channel-test.service';
import type { DeliveriesService } from '../deliveries/deliveries.service';
import type { TelegramLinkService } from '../telegram/telegram-link.service';
import { looseObject, ok } from './tool-result';

/** The services behind the REST endpoints; the account tools call the same ones (same validation, same rules). */
export interface AccountToolServices {
  accounts: AccountsService;
  watches: WatchesService;
  channels: ChannelsService;
  channelTests: ChannelTestService;
  telegramLinks: TelegramLinkService;
  protocolRules: ProtocolRulesService;
  alerts: AlertsService;
  deliveries: DeliveriesService;
}

/** Runs a tool body for the token's account, or answers that a token is needed. */
export type Authed = (body: (account: string) => Promise<CallToolResult>) => Promise<CallToolResult>;

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
export const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const CREATE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
export const DESTRUCTIVE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};
/** Sends a real message to an outside receiver. */
export const SENDS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};

export const resourceId = (what: string) => z.uuid().describe(`${what} id (UUID)`);
export const record = () => z.record(z.string(), z.unknown());
export const listOf = (key: string) => looseObject({ [key]: z.array(record()) });

/** A tool that deletes one resource of the account by id, like the REST DELETE of it; answers `{removed: id}`. */
export function registerRemoveTool(
  server: McpServer,
  authed: Authed,
  tool: { name: string; title: string; description: string; what: string },
  remove: (account: string, id: string) => Promise<void>,
): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: { id: resourceId(tool.what) },
      outputSchema: looseObject({ removed: z.string() }),
      annotations: DESTRUCTIVE,
    },
    ({ id }) =>
      authed(async (account) => {
        await remove(account, id);
        return ok({ removed: id });
      }),
  );
}

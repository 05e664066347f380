import type { BotCommand } from './telegram-bot.client';

/** Whether a command changes the chat's alerts account (then only its owner may send it). */
export type CommandAccess = 'anyone' | 'owner';

export interface BotCommandSpec {
  command: string;
  /** Arguments as shown in /help, e.g. `<address> [label]`. */
  args: string;
  description: string;
  access: CommandAccess;
}

/** Every command of the bot: the source of /help and of the menu registered with setMyCommands. */
export const BOT_COMMANDS: readonly BotCommandSpec[] = [
  { command: 'start', args: '', description: 'Set up alerts in this chat', access: 'anyone' },
  {
    command: 'watch',
    args: '<address> [label]',
    description: 'Watch a wallet: liquidation risk below 5%, opened, closed, liquidated',
    access: 'owner',
  },
  { command: 'unwatch', args: '<address|label>', description: 'Stop watching a wallet', access: 'owner' },
  { command: 'list', args: '', description: 'Watched wallets, their rules and last alert', access: 'anyone' },
  {
    command: 'rules',
    args: '<address|label>',
    description: 'Switch the rules of a watch with buttons',
    access: 'anyone',
  },
  {
    command: 'risk',
    args: '<address|label> <pct>',
    description: 'Alert when the distance to liquidation falls below pct',
    access: 'owner',
  },
  { command: 'pause', args: '', description: 'Stop alerts in this chat', access: 'owner' },
  { command: 'resume', args: '', description: 'Send alerts in this chat again', access: 'owner' },
  { command: 'history', args: '', description: 'The last 10 alerts and their delivery', access: 'anyone' },
  {
    command: 'token',
    args: '',
    description: 'Your API token for the alerts API and MCP, sent privately',
    access: 'owner',
  },
  { command: 'help', args: '', description: 'What the bot can do', access: 'anyone' },
];

export const COMMAND_NAMES: ReadonlySet<string> = new Set(BOT_COMMANDS.map((c) => c.command));

/** The menu for setMyCommands (1-32 lower-case characters, descriptions up to 256). */
export function menuCommands(): BotCommand[] {
  return BOT_COMMANDS.map(({ command, description }) => ({ command, description }));
}

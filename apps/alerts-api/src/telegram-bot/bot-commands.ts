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
  { command: 'list', args: '[page]', description: 'Watched wallets, their rules and last alert', access: 'anyone' },
  {
    command: 'positions',
    args: '[page]',
    description: 'Open positions of the watched wallets, with distance to liquidation and liquidation price',
    access: 'anyone',
  },
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
  {
    command: 'mute',
    args: '<address|label> <30m|2h|1d|off>',
    description: 'Hold back the alerts of a watch for a while (they are still recorded)',
    access: 'owner',
  },
  {
    command: 'cooldown',
    args: '<address|label> <30m|2h|off>',
    description: 'At most one alert of a watch per this long',
    access: 'owner',
  },
  { command: 'pause', args: '', description: 'Stop alerts in this chat', access: 'owner' },
  {
    command: 'resume',
    args: '',
    description: 'Send alerts in this chat again, with a summary of those held back',
    access: 'owner',
  },
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

/** A bot command as typed: `/name@bot arg1 arg2`. */
export interface ParsedCommand {
  name: string;
  /** Bot username after `@`, when the command was addressed to a bot. */
  addressedTo?: string;
  /** Everything after the command, trimmed. */
  rest: string;
  /** `rest` split on whitespace. */
  args: string[];
}

const COMMAND = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{1,64}))?(?:\s+([\s\S]*))?$/;

/** The command a message starts with, or undefined for plain text. */
export function parseCommand(text: string): ParsedCommand | undefined {
  const match = COMMAND.exec(text.trim());
  if (!match) return undefined;
  const rest = (match[3] ?? '').trim();
  return { name: match[1]!.toLowerCase(), addressedTo: match[2], rest, args: rest ? rest.split(/\s+/) : [] };
}

/**
 * Whether this bot should answer: commands addressed to another bot (`/list@other_bot`) are not for
 * us; bare commands and commands addressed to our username are.
 */
export function isForBot(command: ParsedCommand, username: string | undefined): boolean {
  if (!command.addressedTo || !username) return true;
  return command.addressedTo.toLowerCase() === username.toLowerCase();
}

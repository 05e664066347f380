import type { ToolData, ToolDefinition, ToolInput } from '@paper/contracts';
import type { ToolContext } from '../context/tool-context';
import { toolErrors } from '../errors/tool.error';

/** What a handler returns; the executor wraps it in the success envelope. */
export interface ToolOutcome<D = Record<string, unknown>> {
  /** A sentence a person can read, relayed to the user. */
  summary: string;
  data: D;
}

/** Transport-free implementation of one catalog tool. */
export interface ToolHandler<T extends ToolDefinition = ToolDefinition> {
  readonly tool: T;
  run(input: ToolInput<T>, ctx: ToolContext): Promise<ToolOutcome<ToolData<T>>>;
}

/** Multi-provider token: every handler of the catalog. */
export const TOOL_HANDLERS = Symbol('TOOL_HANDLERS');

/** The wallet a tool acts on: the `wallet` argument, else the connected wallet, else `wallet_required`. */
export function resolveWallet(tool: ToolDefinition, given: string | undefined, ctx: ToolContext): string {
  const wallet = given ?? ctx.wallet;
  if (!wallet) throw toolErrors.walletRequired(tool.name);
  return wallet.toLowerCase();
}

/** The connected wallet for tools that always act as it (trading): `wallet_required` without one. */
export function connectedWallet(tool: ToolDefinition, ctx: ToolContext): string {
  if (!ctx.wallet) throw toolErrors.walletRequired(tool.name);
  return ctx.wallet.toLowerCase();
}

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

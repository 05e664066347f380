import { Injectable, Logger } from '@nestjs/common';
import { recordScopeStepUp } from '@paper/oauth-data';
import type { ToolContext } from '../context/tool-context';
import { OauthDatabase } from './oauth-database';

/**
 * Step-up authorization (MCP authorization, "Step-Up Authorization Flow"; RFC 6750 §3.1): when a call is
 * refused because the connection lacks a scope (403 insufficient_scope, the needed scopes in the
 * challenge), the client's request for them is recorded before the answer. The authorization server then
 * answers the client's next refresh of that connection with `invalid_grant` instead of a token with the
 * same scopes, so the client starts a new authorization where the owner can grant them (an MCP SDK
 * client refreshes first and would otherwise stop on the same 403).
 */
@Injectable()
export class ScopeStepUps {
  private readonly logger = new Logger('ScopeStepUps');

  constructor(private readonly oauth: OauthDatabase) {}

  async record(ctx: ToolContext, scopes: readonly string[]): Promise<void> {
    if (!ctx.clientId || !ctx.wallet) return;
    try {
      await recordScopeStepUp(await this.oauth.get(), {
        clientId: ctx.clientId,
        accountId: ctx.wallet,
        scope: scopes.join(' '),
      });
    } catch (error) {
      // The refusal stands either way; without the record the client's next refresh keeps the connection as it is.
      this.logger.warn(`scope request not recorded: ${(error as Error).message}`);
    }
  }
}

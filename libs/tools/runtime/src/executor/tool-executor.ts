import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  SCOPES,
  TOOL_CATALOG,
  type ToolDefinition,
  requiredScopes,
  ToolErrorCode,
  type ToolSuccess,
  findTool,
  toolSuccess,
} from '@paper/contracts';
import { bearerChallenge } from '../auth/access-token.verifier';
import { ScopeStepUps } from '../auth/scope-step-ups';
import type { CallFamily, ToolContext } from '../context/tool-context';
import { ToolError } from '../errors/tool.error';
import { TOOL_HANDLERS, type ToolHandler } from '../handlers/tool-handler';
import { clientKeyOf, ToolIdempotency } from '../idempotency/tool-idempotency';
import { parseToolInput } from '../validation/tool-input.validator';
import { mapToolError } from './error-mapping';

/**
 * Runs catalog tools for any transport: resolves the tool for the path family, checks the scope,
 * validates the arguments against the catalog schema (defaults applied, unknown parameters refused),
 * runs the handler and maps failures to ToolErrors. REST and MCP share it, so no tool logic is duplicated.
 */
@Injectable()
export class ToolExecutor implements OnModuleInit {
  private readonly logger = new Logger('ToolExecutor');
  private readonly handlers: Map<string, ToolHandler>;

  constructor(
    @Inject(TOOL_HANDLERS) handlers: ToolHandler[],
    private readonly stepUps: ScopeStepUps,
    private readonly idempotency: ToolIdempotency,
  ) {
    this.handlers = new Map(handlers.map((h) => [h.tool.name, h]));
  }

  onModuleInit(): void {
    const missing = TOOL_CATALOG.filter((tool) => !this.handlers.has(tool.name)).map((t) => t.name);
    if (missing.length > 0) throw new Error(`tools without a handler: ${missing.join(', ')}`);
  }

  /** The tool called `name` as served on `family`: 404 when unknown, 401 for a trading tool on the public family. */
  resolve(name: string, family: CallFamily): ToolDefinition {
    const tool = findTool(name);
    if (!tool) {
      throw new ToolError(
        ToolErrorCode.ToolNotFound,
        `There is no tool named "${name.slice(0, 64)}". GET /api/v1/tools lists the tools: ` +
          `${TOOL_CATALOG.map((t) => t.name).join(', ')}.`,
      );
    }
    if (family === 'public' && tool.family === 'me-only') {
      throw new ToolError(
        ToolErrorCode.Unauthorized,
        `${tool.name} acts on your funds and needs an OAuth access token: call POST /api/v1/me/tools/${tool.name} ` +
          `with "Authorization: Bearer <token>" (scope trade:write).`,
        { 'WWW-Authenticate': bearerChallenge(undefined, SCOPES.write) },
      );
    }
    return tool;
  }

  /** On the authenticated family every tool needs trade:read, trading tools also trade:write (403 otherwise). */
  authorize(tool: ToolDefinition, ctx: ToolContext): void {
    if (ctx.family !== 'me') return;
    const needed = requiredScopes(tool);
    const missing = needed.filter((s) => !ctx.scopes.includes(s));
    if (missing.length > 0) {
      throw new ToolError(
        ToolErrorCode.InsufficientScope,
        `${tool.name} needs the ${needed.join(' and ')} scope${needed.length > 1 ? 's' : ''}, but this token lacks ` +
          `${missing.join(', ')}. Connect again and grant ${missing.join(' and ')}.`,
        { 'WWW-Authenticate': bearerChallenge('insufficient_scope', needed.join(' ')) },
      );
    }
  }

  /**
   * authorize, for a call about to be answered: a refusal for a missing scope first records the client's
   * request for it (scope-step-ups.ts), so its next refresh leads it to a new authorization.
   */
  async authorizeCall(tool: ToolDefinition, ctx: ToolContext): Promise<void> {
    try {
      this.authorize(tool, ctx);
    } catch (error) {
      if (error instanceof ToolError && error.code === ToolErrorCode.InsufficientScope)
        await this.stepUps.record(ctx, requiredScopes(tool));
      throw error;
    }
  }

  parse(tool: ToolDefinition, raw: unknown): Record<string, unknown> {
    return parseToolInput(tool, raw) as Record<string, unknown>;
  }

  /**
   * Runs a resolved tool with parsed arguments; returns the success envelope or throws a ToolError. A write with
   * a client key (`clientOrderId`) runs at most once per wallet and key (ToolIdempotency).
   */
  async run(tool: ToolDefinition, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolSuccess> {
    const key = clientKeyOf(tool, args);
    if (key === undefined || ctx.wallet === undefined) return this.runHandler(tool, args, ctx);
    const wallet = ctx.wallet;
    return this.idempotency.run(tool, args, { ...ctx, wallet }, key, (keyed) => this.runHandler(tool, args, keyed));
  }

  private async runHandler(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolSuccess> {
    const handler = this.handlers.get(tool.name)!;
    try {
      const { summary, data } = await handler.run(args as never, ctx);
      return toolSuccess(summary, data as Record<string, unknown>);
    } catch (error) {
      const mapped = mapToolError(error);
      if (mapped instanceof ToolError && mapped.status >= 500)
        this.logger.warn(`${tool.name}: ${(error as Error).message}`);
      throw mapped;
    }
  }

  /** resolve + authorize + parse + run. */
  async execute(name: string, raw: unknown, ctx: ToolContext): Promise<ToolSuccess> {
    const tool = this.resolve(name, ctx.family);
    await this.authorizeCall(tool, ctx);
    return this.run(tool, this.parse(tool, raw), ctx);
  }
}

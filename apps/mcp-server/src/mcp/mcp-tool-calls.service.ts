import { Inject, Injectable, Logger } from '@nestjs/common';
import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_CATALOG, type ToolDefinition, ToolErrorCode, type ToolSuccess, isCodedError } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import { RateLimiter, ToolExecutor, ToolResultCache, type ToolContext } from '@paper/tools-runtime';
import type { McpServerConfig } from '../config/mcp-server.config';
import { errorResult, successResult } from './mcp-tool-result';

const INTERNAL_ERROR = 'Something went wrong on our side. Please try again shortly.';

/**
 * tools/call of the MCP transport: everything a tool does happens in the shared tool runtime (the same
 * executor, validation, 5-second public cache and per-caller rate limit as the REST family); this only
 * turns the outcome into an MCP result. Failures of the tool are results with `isError: true` carrying
 * the REST error code and message; an unknown tool name is a JSON-RPC error (-32602), as MCP specifies.
 */
@Injectable()
export class McpToolCalls {
  private readonly logger = new Logger('McpToolCalls');

  constructor(
    private readonly executor: ToolExecutor,
    private readonly cache: ToolResultCache,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: McpServerConfig,
  ) {}

  async call(name: string, rawArgs: unknown, ctx: ToolContext): Promise<CallToolResult> {
    try {
      const tool = this.executor.resolve(name, ctx.family);
      this.executor.authorize(tool, ctx);
      await this.limit(ctx);
      const args = this.executor.parse(tool, rawArgs);
      return successResult(await this.run(tool, args, ctx));
    } catch (error) {
      if (isCodedError(error) && error.code === ToolErrorCode.ToolNotFound) throw unknownTool(name);
      if (isCodedError(error)) return errorResult(error.code, error.message);
      this.logger.error(`${name} failed: ${(error as Error)?.stack ?? String(error)}`);
      return errorResult(ToolErrorCode.InternalError, INTERNAL_ERROR);
    }
  }

  private async run(tool: ToolDefinition, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolSuccess> {
    if (ctx.family !== 'public' || !tool.cacheable) return this.executor.run(tool, args, ctx);
    const cached = await this.cache.getOrCompute(this.cache.key(tool.name, args), async () => JSON.stringify(await this.executor.run(tool, args, ctx)));
    return JSON.parse(cached.body) as ToolSuccess;
  }

  private limit(ctx: ToolContext): Promise<void> {
    return ctx.family === 'public'
      ? this.limiter.take(`ip:${ctx.callerId}`, { perSecond: this.config.RATE_LIMIT_PUBLIC_PER_SECOND, burst: this.config.RATE_LIMIT_PUBLIC_BURST })
      : this.limiter.take(ctx.callerId, { perSecond: this.config.RATE_LIMIT_ME_PER_SECOND, burst: this.config.RATE_LIMIT_ME_BURST });
  }
}

/** A JSON-RPC error the SDK sends as is (code -32602, as MCP specifies for unknown tools). */
function unknownTool(name: string): Error {
  const message = `Unknown tool: ${String(name).slice(0, 64)}. tools/list lists the tools: ${TOOL_CATALOG.map((t) => t.name).join(', ')}.`;
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams, data: { code: ToolErrorCode.ToolNotFound } });
}
